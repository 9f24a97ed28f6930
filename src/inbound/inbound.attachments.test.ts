import { describe, expect, test } from "bun:test";
import nodemailer from "nodemailer";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { freePort } from "../../test/peers/dovecot";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

const smtpPort = await freePort();
const desk = await startTestDesk({ env: { DESK_SMTP_PORT: String(smtpPort), DESK_INBOUND_DOMAIN: "desk.test" } });
const { workspace, owner } = await createWorkspaceWithOwner(desk);
await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: { name: "Support", email: "help@files.test" },
});

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const client = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true });

const ticketOfMessage = async (emailMessageId: string) =>
  (
    await rowsOf<{ id: string; ticket_id: string; body_html: string }>(
      desk.deps.db,
      sql`SELECT id, ticket_id, body_html FROM messages WHERE workspace_id = ${workspace.id} AND email_message_id = ${emailMessageId}`,
    )
  )[0]!;

describe("inbound attachments and inline images over SMTP", () => {
  test("parts are stored as attachments; inline images keep a stable cid marker, signed only when presented", async () => {
    await client.sendMail({
      from: "Carol <carol@customer.test>",
      to: "help@files.test",
      subject: "Screenshot of the error",
      messageId: "<inline-1@customer.test>",
      html: '<p>It looks like this:</p><img src="cid:shot@customer.test" alt="shot"><p>and the log is attached.</p>',
      text: "It looks like this: [shot]",
      attachments: [
        { filename: "shot.png", content: PNG, cid: "shot@customer.test", contentType: "image/png" },
        { filename: "error.log", content: "ERROR printer on fire\n", contentType: "text/plain" },
      ],
    });
    const stored = await ticketOfMessage("inline-1@customer.test");
    // No URL with a credential or an expiry is stored: the body keeps the content id.
    expect(stored.body_html).toContain('src="cid:shot@customer.test"');
    expect(stored.body_html).not.toContain("token=");
    expect(stored.body_html).not.toContain("/v1/attachments/");
    const files = await rowsOf<{
      id: string;
      filename: string;
      inline: number | boolean;
      content_id: string | null;
      content_type: string;
    }>(
      desk.deps.db,
      sql`SELECT id, filename, inline, content_id, content_type FROM attachments WHERE message_id = ${stored.id} ORDER BY filename`,
    );
    // A flag reads 0/1 on SQLite and a boolean on PostgreSQL.
    expect(files.map((f) => [f.filename, Number(f.inline), f.content_id, f.content_type])).toEqual([
      ["error.log", 0, null, "text/plain"],
      ["shot.png", 1, "shot@customer.test", "image/png"],
    ]);

    const listed = await desk.api("GET", `/v1/tickets/${stored.ticket_id}/messages`, { headers: owner.headers });
    expect(listed.status).toBe(200);
    const message = (listed.body.data ?? listed.body).find((m: { id: string }) => m.id === stored.id);
    const image = files.find((f) => f.filename === "shot.png")!;
    const src = /<img[^>]+src="([^"]+)"/.exec(message.body_html)![1]!.replace(/&amp;/g, "&");
    expect(src).toContain(`/v1/attachments/${image.id}/content?token=`);
    const fetched = await desk.api("GET", src.slice(src.indexOf("/v1/")));
    expect(fetched.status).toBe(200);
    expect(
      message.attachments.map((a: { filename: string; inline: boolean }) => [a.filename, a.inline]).sort(),
    ).toEqual([
      ["error.log", false],
      ["shot.png", true],
    ]);
  });

  test("a percent-encoded cid reference is normalised to the stored content id", async () => {
    await client.sendMail({
      from: "carol@customer.test",
      to: "help@files.test",
      subject: "Encoded cid",
      messageId: "<inline-2@customer.test>",
      html: '<img src="cid:image001.png%4001DA0000.ABCDEF00">',
      attachments: [
        { filename: "image001.png", content: PNG, cid: "image001.png@01DA0000.ABCDEF00", contentType: "image/png" },
      ],
    });
    expect((await ticketOfMessage("inline-2@customer.test")).body_html).toContain(
      'src="cid:image001.png@01da0000.abcdef00"',
    );
  });

  test("mail from a blocked contact is stored on a ticket marked spam", async () => {
    const contact = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { email: "spammer@junk.test", name: "Spammer", blocked: true },
    });
    expect(contact.status).toBe(201);
    await client.sendMail({
      from: "spammer@junk.test",
      to: "help@files.test",
      subject: "Cheap printers",
      messageId: "<spam-1@junk.test>",
      text: "Buy now",
    });
    const stored = await ticketOfMessage("spam-1@junk.test");
    const ticket = (
      await rowsOf<{ spam: number | boolean; contact_id: string }>(
        desk.deps.db,
        sql`SELECT spam, contact_id FROM tickets WHERE id = ${stored.ticket_id}`,
      )
    )[0]!;
    expect({ ...ticket, spam: Number(ticket.spam) }).toEqual({ spam: 1, contact_id: contact.body.id });
    await client.sendMail({
      from: "welcome@fine.test",
      to: "help@files.test",
      subject: "Normal mail",
      messageId: "<fine-1@fine.test>",
      text: "Hello",
    });
    const fine = (
      await rowsOf<{ spam: number | boolean }>(
        desk.deps.db,
        sql`SELECT spam FROM tickets WHERE id = ${(await ticketOfMessage("fine-1@fine.test")).ticket_id}`,
      )
    )[0]!;
    expect(Number(fine.spam)).toBe(0);
  });
});
