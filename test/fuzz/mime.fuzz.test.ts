import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { createWorkspaceWithOwner } from "../factories";
import { startTestDesk } from "../harness";
import { storedState } from "./fingerprint";

/**
 * A MIME fuzzer over the ingest pipeline: fast-check mutates the messages of test/mail-corpus
 * (bytes flipped, cut short, boundaries and headers duplicated, broken or blown up, encodings
 * lied about, parts nested deep) and posts each through the inbound route into a real mailbox.
 * Whatever arrives: never a 5xx, never a stall, an answer in SPEC.md's shape, and a message that
 * was accepted is readable through the API afterwards. `FUZZ_RUNS` sets the cases, `FUZZ_SEED`
 * replays a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS_MIME ?? 300);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const STALL_MS = 10_000;

const corpusDir = join(import.meta.dir, "..", "mail-corpus");
const corpus = readdirSync(corpusDir)
  .filter((f) => f.endsWith(".eml"))
  .map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(join(corpusDir, f))) }));

const desk = await startTestDesk({ env: { DESK_JOBS: "off" } });
const { owner } = await createWorkspaceWithOwner(desk);
const mailbox = await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: { name: "Support", email: "support@fuzz.test" },
});
expect(mailbox.status).toBe(201);

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");
const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

type Mutation = { what: string; apply: (text: string) => string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.nat(255)).map(([at, byte]) => ({
    what: `byte ${byte} at ${at}`,
    apply: (t: string) => {
      const i = t.length ? at % t.length : 0;
      return t.slice(0, i) + String.fromCharCode(byte) + t.slice(i + 1);
    },
  })),
  fc.nat().map((at) => ({ what: `cut at ${at}`, apply: (t: string) => t.slice(0, t.length ? at % t.length : 0) })),
  fc.constantFrom<Mutation>(
    { what: "headers only", apply: (t) => t.split(/\r?\n\r?\n/)[0] ?? t },
    {
      what: "no headers",
      apply: (t) =>
        t
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join("\r\n\r\n"),
    },
    { what: "boundary removed", apply: (t) => t.replace(/boundary="?[^";\r\n]+"?/gi, "") },
    { what: "boundary emptied", apply: (t) => t.replace(/boundary="?[^";\r\n]+"?/gi, 'boundary=""') },
    { what: "charset lied", apply: (t) => t.replace(/charset="?[\w-]+"?/gi, "charset=x-no-such-charset") },
    {
      what: "encoding lied",
      apply: (t) => t.replace(/Content-Transfer-Encoding: *\S+/gi, "Content-Transfer-Encoding: base64"),
    },
    { what: "bare CRs", apply: (t) => t.replace(/\r?\n/g, "\r") },
    { what: "bare LFs", apply: (t) => t.replace(/\r\n/g, "\n") },
    { what: "NULs", apply: (t) => t.replace(/ /g, "\u0000") },
    { what: "header repeated 5000 times", apply: (t) => `${"X-Spam: yes\r\n".repeat(5000)}${t}` },
    { what: "subject of 200 KB", apply: (t) => `Subject: ${"S".repeat(200_000)}\r\n${t}` },
    { what: "folded header 10000 lines", apply: (t) => `X-Long: a\r\n${" b\r\n".repeat(10_000)}${t}` },
    { what: "from unparseable", apply: (t) => t.replace(/^From:.*$/im, "From: <<<@@@>>>") },
    { what: "message-id repeated", apply: (t) => t.replace(/^Message-ID:.*$/im, "Message-ID: <same@fuzz.test>") },
    {
      what: "multipart nested 60 deep",
      apply: (_t) => {
        let body = "leaf";
        for (let i = 0; i < 60; i++)
          body = `--b${i}\r\nContent-Type: multipart/mixed; boundary="b${i + 1}"\r\n\r\n${body}\r\n--b${i}--`;
        return `From: a@b.test\r\nTo: support@fuzz.test\r\nSubject: deep\r\nContent-Type: multipart/mixed; boundary="b0"\r\n\r\n${body}\r\n`;
      },
    },
    {
      what: "attachment part 4000 times",
      apply: (t) =>
        `From: a@b.test\r\nTo: support@fuzz.test\r\nSubject: parts\r\nContent-Type: multipart/mixed; boundary="p"\r\n\r\n${"--p\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=x.bin\r\n\r\nAAAA\r\n".repeat(4000)}--p--\r\n${t.slice(0, 0)}`,
    },
    {
      what: "encoded-word garbage",
      apply: (t) => t.replace(/^Subject:.*$/im, "Subject: =?utf-8?B?////?= =?x?Q?=ZZ?="),
    },
  ),
);

const changesOf = async () => await storedState(desk.deps.db);

test("mutated mail never breaks ingest: no 5xx, no stall, refusals store nothing, accepted mail reads back", async () => {
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...corpus),
      fc.array(mutation, { minLength: 1, maxLength: 3 }),
      async (sample, mutations) => {
        const raw = bytesOf(mutations.reduce((text, m) => m.apply(text), latin1(sample.bytes)));
        const label = `${sample.name} with ${mutations.map((m) => m.what).join(", ")}`;
        const before = await changesOf();
        const res = await Promise.race([
          desk.api("POST", "/v1/inbound/email?to=support%40fuzz.test", {
            headers: { "content-type": "message/rfc822", "desk-inbound-secret": "test-inbound-secret" },
            raw: Buffer.from(raw),
          }),
          Bun.sleep(STALL_MS).then(() => null),
        ]);
        if (!res) {
          problems.push(`${label}: no answer within ${STALL_MS} ms`);
          return;
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) problems.push(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
        else if (res.status >= 400) {
          if (typeof res.body?.code !== "string") problems.push(`${label}: ${res.status} without the error body`);
          if ((await changesOf()) !== before)
            problems.push(`${label}: refused with ${res.status} but changed the database`);
        } else if (res.body?.ticket_id) {
          const ticket = await desk.api("GET", `/v1/tickets/${res.body.ticket_id}/messages`, {
            headers: owner.headers,
          });
          if (ticket.status !== 200) problems.push(`${label}: accepted but its ticket answers ${ticket.status}`);
        }
      },
    ),
    { numRuns: RUNS, seed: SEED },
  );
  console.log(`MIME fuzzer: ${RUNS} messages, answers by status ${JSON.stringify(Object.fromEntries(statuses))}`);
  expect(problems).toEqual([]);
}, 600_000);
