import { afterAll, describe, expect, test } from "bun:test";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { createWorkspaceWithOwner, type Member } from "../../test/factories";
import { importedTickets, runImportToEnd } from "../../test/kit/imports";
import { type Dovecot, freePort, startDovecot } from "../../test/peers/dovecot";
import { seedFreshdeskAccount, startFakeFreshdesk } from "../../test/peers/fake-freshdesk";
import { seedHelpScoutAccount, startFakeHelpScout } from "../../test/peers/fake-helpscout";
import { seedSmallAccount, startFakeZendesk } from "../../test/peers/fake-zendesk";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

/**
 * Imported history threads live mail: a customer's reply over SMTP naming an imported message's
 * Message-ID joins the imported ticket. Imported contacts and companies keep the source's
 * creation time, and a re-run moves neither.
 */

const MAILBOX = "support@acme.test";
const dovecot: Dovecot = await startDovecot({ [MAILBOX]: "mailbox-pw" }, { specialUse: { "Sent Items": "\\Sent" } });
const zd = startFakeZendesk();
const hs = startFakeHelpScout();
const fd = startFakeFreshdesk();
afterAll(async () => {
  const disposed = dovecot.dispose();
  zd.stop();
  hs.stop();
  fd.stop();
  await disposed;
});
const smtpPort = await freePort();
const desk: TestDesk = await startTestDesk({
  env: { DESK_SMTP_PORT: String(smtpPort), DESK_INBOUND_DOMAIN: "desk.test" },
  config: { allowedPrivateHosts: ["127.0.0.1"], mailCa: [dovecot.ca] },
});
const { owner } = await createWorkspaceWithOwner(desk);
await desk.api("POST", "/v1/mailboxes", { headers: owner.headers, body: { name: "Support", email: MAILBOX } });

const at = (s: number) => new Date((1_700_000_000 + s) * 1000);
const mail = (headers: Record<string, string>, text: string) =>
  `${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join(
      "\r\n",
    )}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${text}\r\n`;

dovecot.deliver(
  MAILBOX,
  mail(
    {
      From: '"Umit Celik" <umit@globex.test>',
      To: MAILBOX,
      Subject: "Printer jams",
      "Message-ID": "<hist-1@globex.test>",
      Date: at(100).toUTCString(),
    },
    "The printer jams on every page.",
  ),
);
dovecot.deliver(
  MAILBOX,
  mail(
    {
      From: `Support <${MAILBOX}>`,
      To: '"Umit Celik" <umit@globex.test>',
      Subject: "Re: Printer jams",
      "Message-ID": "<hist-2@acme.test>",
      "In-Reply-To": "<hist-1@globex.test>",
      References: "<hist-1@globex.test>",
      Date: at(200).toUTCString(),
    },
    "Try the other tray.",
  ),
  "Sent Items",
);

const imapBody = {
  source: "imap",
  options: { host: "127.0.0.1", port: dovecot.imapsPort, tls: "tls", username: MAILBOX, password: "mailbox-pw" },
};

const runImport = async (member: Member, body: unknown) => {
  const started = await desk.api("POST", "/v1/imports", { headers: member.headers, body });
  expect(started.status).toBe(202);
  const done = await runImportToEnd(desk, member, started.body.id);
  expect(done.errors).toEqual([]);
  return done;
};

const contactsOf = async (member: Member): Promise<Array<{ email: string | null; created_at: string }>> =>
  (await desk.api("GET", "/v1/contacts?limit=100", { headers: member.headers })).body.data;
const companiesOf = async (member: Member): Promise<Array<{ name: string; created_at: string }>> =>
  (await desk.api("GET", "/v1/companies?limit=100", { headers: member.headers })).body.data;
const mapRows = async (workspaceId: string) =>
  (
    await rowsOf<{ n: number }>(
      desk.deps.db,
      sql`SELECT count(*) AS n FROM mail_message_ids WHERE workspace_id = ${workspaceId}`,
    )
  )[0]!.n;

describe("imports: history threads live mail; records keep their source times", () => {
  test("a live SMTP reply to an imported IMAP message joins its ticket; a re-run adds no map rows", async () => {
    await runImport(owner, imapBody);
    const [imported] = await importedTickets(desk, owner);
    expect(imported).toMatchObject({ subject: "Printer jams", message_count: 2 });
    // A contact of mail history dates from its first message.
    const umit = (await contactsOf(owner)).find((c) => c.email === "umit@globex.test")!;
    expect(umit.created_at).toBe(at(100).toISOString());

    const reply = mail(
      {
        From: '"Umit Celik" <umit@globex.test>',
        To: MAILBOX,
        Subject: "Still jamming",
        "Message-ID": "<live-3@globex.test>",
        "In-Reply-To": "<hist-2@acme.test>",
        References: "<hist-1@globex.test> <hist-2@acme.test>",
        Date: at(10_000).toUTCString(),
      },
      "It still jams.",
    );
    const replies = await sendRawSmtp(smtpPort, new TextEncoder().encode(reply), {
      from: "umit@globex.test",
      to: [MAILBOX],
    });
    expect(replies.at(-2)?.code).toBe(250);
    const tickets = await importedTickets(desk, owner);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ id: imported!.id, message_count: 3 });

    const rows = await mapRows(owner.workspaceId);
    // The two imported ids and the live one.
    expect(rows).toBe(3);
    await runImport(owner, imapBody);
    expect(await mapRows(owner.workspaceId)).toBe(rows);
    expect((await contactsOf(owner)).find((c) => c.email === "umit@globex.test")!.created_at).toBe(
      at(100).toISOString(),
    );
  }, 30_000);

  test("Zendesk users and organizations keep created_at; a re-run updates them but keeps it", async () => {
    const { owner: member } = await createWorkspaceWithOwner(desk);
    seedSmallAccount(zd, "agent@desk.test");
    zd.organizations[0]!.created_at = at(-5000)
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z");
    const customer = zd.users.find((u) => u.role === "end-user" && u.email)!;
    customer.created_at = at(-4000)
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z");
    const body = {
      source: "zendesk",
      options: {
        subdomain: "acme",
        email: zd.email,
        api_token: zd.token,
        base_url: zd.url,
        requests_per_minute: 10_000,
        export_requests_per_minute: 10_000,
      },
    };
    await runImport(member, body);
    const company = (await companiesOf(member)).find((c) => c.name === zd.organizations[0]!.name)!;
    expect(company.created_at).toBe(at(-5000).toISOString());
    const email = customer.email!.toLowerCase();
    expect((await contactsOf(member)).find((c) => c.email === email)!.created_at).toBe(at(-4000).toISOString());

    customer.name = "Renamed Later";
    customer.updated_at = new Date(Date.now() + 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    await runImport(member, body);
    const after = (await contactsOf(member)).find((c) => c.email === email) as { name?: string; created_at: string };
    expect(after.name).toBe("Renamed Later");
    expect(after.created_at).toBe(at(-4000).toISOString());
  }, 30_000);

  test("Help Scout customers keep createdAt", async () => {
    const { owner: member } = await createWorkspaceWithOwner(desk);
    seedHelpScoutAccount(hs, "agent@desk.test");
    await runImport(member, {
      source: "helpscout",
      options: { app_id: hs.appId, app_secret: hs.appSecret, base_url: hs.url, requests_per_minute: 10_000 },
    });
    // The fake answers every customer's createdAt as its epoch mark (1_700_000_000 s).
    const umit = (await contactsOf(member)).find((c) => c.email === "umit@globex.test")!;
    expect(umit.created_at).toBe(at(0).toISOString());
  }, 30_000);

  test("Freshdesk contacts and companies keep created_at", async () => {
    const { owner: member } = await createWorkspaceWithOwner(desk);
    seedFreshdeskAccount(fd, "agent@desk.test");
    await runImport(member, {
      source: "freshdesk",
      options: { domain: "acme", api_key: fd.apiKey, base_url: fd.url, requests_per_minute: 10_000 },
    });
    // The fake answers every contact's and company's created_at as its epoch mark.
    expect((await contactsOf(member)).find((c) => c.email === "umit@globex.test")!.created_at).toBe(
      at(0).toISOString(),
    );
    expect((await companiesOf(member)).find((c) => c.name === "Globex Corporation")!.created_at).toBe(
      at(0).toISOString(),
    );
  }, 30_000);

  test("CSV: a mapped created_at column dates new records; a re-upload keeps it; a bad date is refused", async () => {
    const { owner: member } = await createWorkspaceWithOwner(desk);
    const upload = async (kind: string, text: string) => {
      const form = new FormData();
      form.set("source", "csv");
      form.set("kind", kind);
      form.set("file", new Blob([text], { type: "text/csv" }), "file.csv");
      const res = await desk.api("POST", "/v1/imports", { headers: member.headers, raw: form });
      expect(res.status).toBe(202);
      return runImportToEnd(desk, member, res.body.id);
    };
    await upload("companies", "name,created_at\nInitech,2019-03-04T05:06:07Z\n");
    await upload("contacts", "email,name,created_at\nbill@initech.test,Bill,2020-01-02\nnew@initech.test,New,\n");
    expect((await companiesOf(member)).find((c) => c.name === "Initech")!.created_at).toBe("2019-03-04T05:06:07.000Z");
    const bill = () => contactsOf(member).then((list) => list.find((c) => c.email === "bill@initech.test")!);
    expect((await bill()).created_at).toBe("2020-01-02T00:00:00.000Z");
    // No date in the cell: the record dates from the import.
    const fresh = (await contactsOf(member)).find((c) => c.email === "new@initech.test")!;
    expect(Date.parse(fresh.created_at)).toBeGreaterThan(Date.parse("2025-01-01"));

    const again = await upload("contacts", "email,name,created_at\nbill@initech.test,Bill Lumbergh,2024-05-05\n");
    expect(again.status).toBe("succeeded");
    expect((await bill()).created_at).toBe("2020-01-02T00:00:00.000Z");

    const bad = await upload("contacts", "email,created_at\nx@initech.test,next tuesday\n");
    expect(bad.status).toBe("failed");
    expect(JSON.stringify(bad.errors)).toContain("created_at is not a date");
  }, 30_000);
});
