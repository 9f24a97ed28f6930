import { afterAll, describe, expect, test } from "bun:test";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { importedTickets, runImportToEnd } from "../../test/kit/imports";
import { type Dovecot, startDovecot } from "../../test/peers/dovecot";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

const MAILBOX = "support@acme.test";
const dovecot: Dovecot = await startDovecot({ [MAILBOX]: "mailbox-pw" }, { specialUse: { "Sent Items": "\\Sent" } });
afterAll(() => dovecot.dispose());
const desk: TestDesk = await startTestDesk({ config: { allowedPrivateHosts: ["127.0.0.1"], mailCa: [dovecot.ca] } });
const { owner } = await createWorkspaceWithOwner(desk);
const ana: Member = await addMember(desk, owner.workspaceId, "agent", { email: "ana@acme.test", name: "Ana Agent" });

const at = (s: number) => new Date((1_700_000_000 + s) * 1000).toUTCString();
const subject = `=?UTF-8?B?${Buffer.from("Drucker druckt nicht — 打印机").toString("base64")}?=`;
const mail = (headers: Record<string, string>, body: string) =>
  `${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\r\n")}\r\nMIME-Version: 1.0\r\n${body}`;
const text = (s: string) =>
  `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${s}\r\n`;

dovecot.deliver(
  MAILBOX,
  mail(
    {
      From: '"Ümit Çelik" <umit@globex.test>',
      To: MAILBOX,
      Subject: subject,
      "Message-ID": "<m1@globex.test>",
      Date: at(100),
    },
    [
      'Content-Type: multipart/mixed; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/html; charset=utf-8",
      "",
      '<p>My printer is <b>broken</b> 😢<script>alert(1)</script><img src="x" onerror="alert(2)"></p>',
      "--b1",
      'Content-Type: image/png; name="=?UTF-8?Q?screenshot_=C3=A9.png?="',
      'Content-Disposition: attachment; filename="=?UTF-8?Q?screenshot_=C3=A9.png?="',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]).toString("base64"),
      "--b1--",
      "",
    ].join("\r\n"),
  ),
);
dovecot.deliver(
  MAILBOX,
  mail(
    {
      From: '"Ümit Çelik" <umit@globex.test>',
      To: MAILBOX,
      Subject: `Re: ${subject}`,
      "Message-ID": "<m3@globex.test>",
      "In-Reply-To": "<m2@acme.test>",
      References: "<m1@globex.test> <m2@acme.test>",
      Date: at(300),
    },
    text("Thanks, it works now!\r\n\r\nOn Tue, Ana wrote:\r\n> Have you tried turning it off?"),
  ),
);
dovecot.deliver(
  MAILBOX,
  mail(
    {
      From: "zoe@example.test",
      To: MAILBOX,
      Subject: "Billing question",
      "Message-ID": "<m4@example.test>",
      Date: at(500),
    },
    text("Why was I charged twice?"),
  ),
);
dovecot.deliver(
  MAILBOX,
  mail(
    {
      From: '"Ana Agent" <ana@acme.test>',
      To: '"Ümit Çelik" <umit@globex.test>',
      Subject: `Re: ${subject}`,
      "Message-ID": "<m2@acme.test>",
      "In-Reply-To": "<m1@globex.test>",
      References: "<m1@globex.test>",
      Date: at(200),
    },
    text("Have you tried turning it off?"),
  ),
  "Sent Items",
);
dovecot.deliver(
  MAILBOX,
  mail(
    {
      From: '"Bob Former" <bob@acme.test>',
      To: "zoe@example.test",
      Subject: "Re: Billing question",
      "Message-ID": "<m5@acme.test>",
      "In-Reply-To": "<m4@example.test>",
      References: "<m4@example.test>",
      Date: at(600),
    },
    text("Refunded."),
  ),
  "Sent Items",
);

const body = (overrides: Record<string, unknown> = {}) => ({
  source: "imap",
  options: {
    host: "127.0.0.1",
    port: dovecot.imapsPort,
    tls: "tls",
    username: MAILBOX,
    password: "mailbox-pw",
    ...overrides,
  },
});

const runToEnd = (member: Member, id: string) => runImportToEnd(desk, member, id);

const ticketsOf = (member: Member) => importedTickets(desk, member);

describe("imports: IMAP history", () => {
  test("INBOX and the \\Sent folder become threaded tickets; sent mail is agent replies; nothing is sent", async () => {
    const started = await desk.api("POST", "/v1/imports", { headers: owner.headers, body: body() });
    expect(started.status).toBe(202);
    const done = await runToEnd(owner, started.body.id);
    expect(done.errors).toEqual([]);
    expect(done.status).toBe("succeeded");
    expect(done.counts).toMatchObject({ tickets: 4, messages: 5, attachments: 1, failed: 0 });

    const tickets = await ticketsOf(owner);
    expect(tickets).toHaveLength(2);
    const printer = tickets.find((t) => t.subject === "Drucker druckt nicht — 打印机")!;
    // Its newest message (from the INBOX) came in after the reply in Sent Items: open.
    expect(printer).toMatchObject({
      status: "open",
      message_count: 3,
      created_at: "2023-11-14T22:15:00.000Z",
      assignee: null,
    });
    expect(printer.contact?.email).toBe("umit@globex.test");
    const billing = tickets.find((t) => t.subject === "Billing question")!;
    expect(billing).toMatchObject({ status: "solved", message_count: 2 });
    expect(billing.contact?.email).toBe("zoe@example.test");

    const messages = (await desk.api("GET", `/v1/tickets/${printer.id}/messages`, { headers: owner.headers })).body
      .data;
    const [first, second, third] = messages;
    expect(first).toMatchObject({ kind: "reply", direction: "inbound" });
    expect(first.body_html).toContain("😢");
    expect(first.body_html).not.toContain("<script");
    expect(first.body_html).not.toContain("onerror");
    expect(first.attachments.map((a: { filename: string }) => a.filename)).toEqual(["screenshot é.png"]);
    expect(second).toMatchObject({ kind: "reply", direction: "outbound", delivery_status: "none" });
    expect(second.author).toMatchObject({ type: "user", user: { id: ana.id } });
    expect(third).toMatchObject({ kind: "reply", direction: "inbound" });
    // Quoted history is trimmed as live mail's is.
    expect(third.body_html).toContain("Thanks, it works now!");
    expect(third.body_html).not.toContain("turning it off");

    const billingMessages = (await desk.api("GET", `/v1/tickets/${billing.id}/messages`, { headers: owner.headers }))
      .body.data;
    // Sent by someone who is no member: an outbound reply under their name.
    expect(billingMessages[1]).toMatchObject({ direction: "outbound", from_name: "Bob Former" });

    await desk.consumers.drain();
    await desk.jobs.drain();
    const jobs = (
      await rowsOf<{ kind: string }>(
        desk.deps.db,
        sql`SELECT kind FROM jobs WHERE workspace_id = ${owner.workspaceId} AND kind != 'imports.run'`,
      )
    ).map((r) => r.kind);
    expect(jobs).toEqual([]);
    expect((await desk.api("GET", "/v1/notifications", { headers: ana.headers })).body.data ?? []).toEqual([]);
  });

  test("a re-run reads only mail above each folder's last UID and threads it into its ticket", async () => {
    dovecot.deliver(
      MAILBOX,
      mail(
        {
          From: "zoe@example.test",
          To: MAILBOX,
          Subject: "Re: Billing question",
          "Message-ID": "<m6@example.test>",
          "In-Reply-To": "<m5@acme.test>",
          References: "<m4@example.test> <m5@acme.test>",
          Date: at(700),
        },
        text("Still charged twice."),
      ),
    );
    const done = await runToEnd(
      owner,
      (await desk.api("POST", "/v1/imports", { headers: owner.headers, body: body() })).body.id,
    );
    expect(done.status).toBe("succeeded");
    expect(done.counts).toMatchObject({ tickets: 1, messages: 1, attachments: 0, failed: 0 });
    const tickets = await ticketsOf(owner);
    expect(tickets).toHaveLength(2);
    expect(tickets.find((t) => t.subject === "Billing question")).toMatchObject({ status: "open", message_count: 3 });

    const again = await runToEnd(
      owner,
      (await desk.api("POST", "/v1/imports", { headers: owner.headers, body: body() })).body.id,
    );
    expect(again.counts).toMatchObject({ tickets: 0, messages: 0, contacts: 0, failed: 0 });
  });

  test("a wrong password fails the run with the reason; check says so", async () => {
    expect((await desk.api("POST", "/v1/imports/check", { headers: owner.headers, body: body() })).body).toMatchObject({
      ok: true,
    });
    const { owner: other } = await createWorkspaceWithOwner(desk);
    const done = await runToEnd(
      other,
      (await desk.api("POST", "/v1/imports", { headers: other.headers, body: body({ password: "wrong" }) })).body.id,
    );
    expect(done.status).toBe("failed");
    expect(done.errors.at(-1).message).toContain("IMAP login failed");
    expect(
      (await desk.api("POST", "/v1/imports/check", { headers: owner.headers, body: body({ password: "x" }) })).body.ok,
    ).toBe(false);
  }, 30_000);

  test("an import and its tickets exist only in their workspace; bad options answer 422 with their location", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    const id = (await desk.api("GET", "/v1/imports", { headers: owner.headers })).body.data[0].id;
    expect((await desk.api("GET", `/v1/imports/${id}`, { headers: other.headers })).status).toBe(404);
    const ticket = (await ticketsOf(owner))[0]!;
    expect((await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: other.headers })).status).toBe(404);
    expect(await ticketsOf(other)).toEqual([]);
    const bad = await desk.api("POST", "/v1/imports", {
      headers: owner.headers,
      body: {
        source: "imap",
        options: { host: "x y", port: 70_000, username: MAILBOX, password: "p", tls: "sometimes" },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { location: string }) => e.location).sort()).toEqual([
      "body.options.host",
      "body.options.port",
      "body.options.tls",
    ]);
  });
});
