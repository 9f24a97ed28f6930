import { afterAll, describe, expect, test } from "bun:test";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { importedTickets, runImportToEnd } from "../../test/kit/imports";
import { type Dovecot, startDovecot } from "../../test/peers/dovecot";

const MAILBOX = "inline@acme.test";
const dovecot: Dovecot = await startDovecot({ [MAILBOX]: "mailbox-pw" });
afterAll(() => dovecot.dispose());
const desk: TestDesk = await startTestDesk({ config: { allowedPrivateHosts: ["127.0.0.1"], mailCa: [dovecot.ca] } });
const { owner } = await createWorkspaceWithOwner(desk);

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 4, 3, 2, 1]);
dovecot.deliver(
  MAILBOX,
  [
    'From: "Ümit Çelik" <umit@globex.test>',
    `To: ${MAILBOX}`,
    "Subject: The error dialog",
    "Message-ID: <inline1@globex.test>",
    `Date: ${new Date(1_700_000_000_000).toUTCString()}`,
    "MIME-Version: 1.0",
    'Content-Type: multipart/related; boundary="r1"',
    "",
    "--r1",
    "Content-Type: text/html; charset=utf-8",
    "",
    // RFC 2392 lets the reference be percent-encoded and in any case.
    '<p>This dialog:</p><img src="cid:Dialog%40Globex.test" alt="dialog"><img src="https://tracker.example/p.gif" alt="pixel">',
    "--r1",
    'Content-Type: image/png; name="dialog.png"',
    'Content-Disposition: inline; filename="dialog.png"',
    "Content-ID: <dialog@globex.test>",
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from(png).toString("base64"),
    "--r1--",
    "",
  ].join("\r\n"),
);

describe("imports: IMAP inline images", () => {
  test("an HTML mail's cid: image is stored with the message and shown from Desk; remote images are dropped", async () => {
    const started = await desk.api("POST", "/v1/imports", {
      headers: owner.headers,
      body: {
        source: "imap",
        options: { host: "127.0.0.1", port: dovecot.imapsPort, tls: "tls", username: MAILBOX, password: "mailbox-pw" },
      },
    });
    expect(started.status).toBe(202);
    const done = await runImportToEnd(desk, owner, started.body.id);
    expect(done.status).toBe("succeeded");
    expect(done.errors).toEqual([]);
    const [ticket] = await importedTickets(desk, owner);
    const [message] = (await desk.api("GET", `/v1/tickets/${ticket!.id}/messages`, { headers: owner.headers })).body
      .data;
    expect(message.attachments).toHaveLength(1);
    const html: string = message.body_html;
    expect(html).not.toContain("cid:");
    expect(html).not.toContain("tracker.example");
    expect(html).toContain("pixel");
    const src = /<img[^>]*src="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, "&");
    expect(src).toContain(message.attachments[0].id);
    const file = await fetch(new URL(src, desk.url), { headers: owner.headers });
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
  });
});
