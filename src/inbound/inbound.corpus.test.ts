import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { freePort } from "../../test/peers/dovecot";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import { sql } from "drizzle-orm";
import { first, rowsOf } from "../db/store";

/**
 * The awkward-mail corpus (test/mail-corpus, described by expected.json) over real SMTP: every
 * message becomes a readable message or a clear refusal, the server stays up, and a second pass
 * stores nothing twice.
 */
type Expectation = {
  file: string;
  expect: "stored" | "refused" | "bounce";
  reason?: string;
  message_id?: string;
  subject?: string;
  text?: string;
  attachments?: string[];
};

const corpusDir = join(import.meta.dir, "../../test/mail-corpus");
const corpus = JSON.parse(readFileSync(join(corpusDir, "expected.json"), "utf8")) as Expectation[];

const smtpPort = await freePort();
const desk = await startTestDesk({ env: { DESK_SMTP_PORT: String(smtpPort), DESK_INBOUND_DOMAIN: "desk.test" } });
const { workspace, owner } = await createWorkspaceWithOwner(desk);
const mailbox = await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: { name: "Corpus", email: "support@corpus.test" },
});

const send = (raw: Uint8Array) =>
  sendRawSmtp(smtpPort, raw, { from: "sender@customer.test", to: ["support@corpus.test"] });
const count = async (table: "messages" | "tickets" | "attachments") =>
  (
    await rowsOf<{ n: number }>(
      desk.deps.db,
      sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE workspace_id = ${workspace.id}`,
    )
  )[0]!.n;

type StoredMessage = {
  id: string;
  ticket_id: string;
  subject: string;
  body_text: string;
  body_html: string;
  original_path: string | null;
};
async function storedMessage(entry: Expectation): Promise<StoredMessage | undefined> {
  const db = desk.deps.db;
  if (entry.message_id)
    return first(
      await rowsOf<StoredMessage>(
        db,
        sql`SELECT * FROM messages WHERE workspace_id = ${workspace.id} AND email_message_id = ${entry.message_id}`,
      ),
    );
  return first(
    await rowsOf<StoredMessage>(
      db,
      sql`SELECT * FROM messages WHERE workspace_id = ${workspace.id} AND subject = ${entry.subject!}`,
    ),
  );
}

const finalReply = (replies: Array<{ code: number; text: string }>) => replies.at(-2)!;

describe("the awkward-mail corpus over real SMTP", () => {
  test("holds at least 40 messages", () => {
    expect(mailbox.status).toBe(201);
    expect(corpus.length).toBeGreaterThanOrEqual(40);
  });

  test("each message is stored readably, refused with a 550, or handled as a bounce; the server stays up", async () => {
    const problems: string[] = [];
    for (const entry of corpus) {
      const replies = await send(new Uint8Array(readFileSync(join(corpusDir, entry.file))));
      const reply = finalReply(replies);
      if (entry.expect === "refused") {
        if (reply.code !== 550) problems.push(`${entry.file}: expected 550, got ${reply.code} ${reply.text}`);
        const receipt = (
          await rowsOf<{ outcome: string }>(
            desk.deps.db,
            sql`SELECT outcome FROM inbound_receipts WHERE mailbox_id = ${mailbox.body.id} AND dedupe_key = ${`mid:${entry.message_id}`}`,
          )
        )[0];
        if (receipt?.outcome !== `refused:${entry.reason}`) problems.push(`${entry.file}: receipt ${receipt?.outcome}`);
        continue;
      }
      if (reply.code !== 250) {
        problems.push(`${entry.file}: expected 250, got ${reply.code} ${reply.text}`);
        continue;
      }
      if (entry.expect === "bounce") continue;
      const message = await storedMessage(entry);
      if (!message) {
        problems.push(`${entry.file}: no message stored`);
        continue;
      }
      if (entry.subject !== undefined && message.subject !== entry.subject)
        problems.push(`${entry.file}: subject ${JSON.stringify(message.subject)}`);
      if (entry.text !== undefined && !message.body_text.includes(entry.text))
        problems.push(`${entry.file}: body ${JSON.stringify(message.body_text.slice(0, 200))}`);
      // Readable: the stored body is sanitized HTML and text without NUL bytes or scripts.
      if (/<script|onclick=|javascript:/i.test(message.body_html)) problems.push(`${entry.file}: unsanitized body`);
      if (message.body_text.includes("\u0000") || message.subject.includes("\u0000"))
        problems.push(`${entry.file}: NUL stored`);
      if (!message.original_path) problems.push(`${entry.file}: original not kept`);
      if (entry.attachments) {
        const names = (
          await rowsOf<{ filename: string }>(
            desk.deps.db,
            sql`SELECT filename FROM attachments WHERE message_id = ${message.id} ORDER BY filename`,
          )
        ).map((r) => r.filename);
        if (JSON.stringify(names) !== JSON.stringify([...entry.attachments].sort()))
          problems.push(`${entry.file}: attachments ${JSON.stringify(names)}`);
      }
    }
    expect(problems).toEqual([]);
    const health = await fetch(`${desk.url}/healthz`);
    expect(health.status).toBe(200);
  }, 60_000);

  test("the original keeps the full message, quoted history included", async () => {
    const entry = corpus.find((e) => e.file === "forwarded-inline.eml")!;
    const message = (await storedMessage(entry))!;
    const original = await desk.api("GET", `/v1/messages/${message.id}/original`, { headers: owner.headers });
    expect(original.status).toBe(200);
    expect(original.text).toContain("quoted twice");
  });

  test("ingesting the whole corpus a second time stores nothing twice", async () => {
    const before = {
      messages: await count("messages"),
      tickets: await count("tickets"),
      attachments: await count("attachments"),
    };
    expect(before.tickets).toBeGreaterThanOrEqual(corpus.filter((e) => e.expect === "stored").length);
    for (const entry of corpus) {
      const reply = finalReply(await send(new Uint8Array(readFileSync(join(corpusDir, entry.file)))));
      expect(reply.code).toBe(entry.expect === "refused" ? 550 : 250);
    }
    expect({
      messages: await count("messages"),
      tickets: await count("tickets"),
      attachments: await count("attachments"),
    }).toEqual(before);
    expect((await fetch(`${desk.url}/healthz`)).status).toBe(200);
  }, 60_000);

  test("a 12 MB attachment (generated here) arrives whole", async () => {
    const bytes = new Uint8Array(12 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
    const base64 = Buffer.from(bytes).toString("base64").replace(/.{76}/g, "$&\r\n");
    const raw = [
      "From: Carol <carol@customer.test>",
      "To: support@corpus.test",
      "Subject: Huge attachment",
      "Message-ID: <huge@corpus.test>",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="huge"',
      "",
      "--huge",
      "Content-Type: text/plain",
      "",
      "Here is the disk image.",
      "--huge",
      'Content-Type: application/octet-stream; name="disk.img"',
      'Content-Disposition: attachment; filename="disk.img"',
      "Content-Transfer-Encoding: base64",
      "",
      base64,
      "--huge--",
      "",
    ].join("\r\n");
    const reply = finalReply(await send(new TextEncoder().encode(raw)));
    expect(reply.code).toBe(250);
    const message = (await storedMessage({ file: "", expect: "stored", message_id: "huge@corpus.test" }))!;
    const file = (
      await rowsOf<{ id: string; size_bytes: number; filename: string }>(
        desk.deps.db,
        sql`SELECT id, size_bytes, filename FROM attachments WHERE message_id = ${message.id}`,
      )
    )[0]!;
    expect(file).toMatchObject({ filename: "disk.img", size_bytes: bytes.length });
    const stored = readFileSync(join(desk.dataDir, "attachments", file.id));
    expect(Buffer.compare(stored, Buffer.from(bytes))).toBe(0);
  }, 60_000);
});
