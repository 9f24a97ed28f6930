// Group commit is SQLite's: on PostgreSQL every change commits before transact returns, so a door cannot get ahead of it.
import { afterAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { freePort } from "../../test/peers/dovecot";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { beforeEachCommit } from "./tx";

// Every door tells the outside world "stored" only once the change is durable (src/db/tx.ts,
// untilDurable). Here the next COMMIT fails on purpose: a door that answered before it would
// report success for a change that never existed.
const sink = await startSmtpSink();
const smtpPort = await freePort();
// The smtp-sink peer listens on loopback, which a mailbox's SMTP host may reach only when listed.
const desk = await startTestDesk({
  env: { DESK_SMTP_PORT: String(smtpPort), DESK_INBOUND_DOMAIN: "desk.test", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
});
afterAll(() => sink.stop());
const { workspace, owner } = await createWorkspaceWithOwner(desk);
const mailbox = await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: {
    name: "Support",
    email: "support@doors.test",
    outbound_kind: "smtp",
    config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
  },
});
expect(mailbox.status).toBe(201);

/**
 * Fails the next commit that holds the door's change (`holdsChange` reads the uncommitted state on
 * the same connection). Background commits of other work (consumers, recurring jobs) pass, so the
 * commit that fails is the door's own whatever runs meanwhile.
 */
let failCommitWhen: (() => boolean) | null = null;
beforeEachCommit(desk.deps.db, () => {
  if (!failCommitWhen?.()) return;
  failCommitWhen = null;
  throw new Error("disk full (on purpose)");
});

const count = (sql: string, ...args: string[]) =>
  desk.deps.db.$client.query<{ n: number }, string[]>(sql).get(...args)!.n;

function smtpSession(commands: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(smtpPort, "127.0.0.1");
    const replies: string[] = [];
    let buffer = "";
    let step = -1;
    socket.on("data", (chunk) => {
      buffer += chunk.toString();
      for (let match = /^(\d{3}) .*\r\n/m.exec(buffer); match; match = /^(\d{3}) .*\r\n/m.exec(buffer)) {
        replies.push(match[0].trim());
        buffer = buffer.slice(match.index + match[0].length);
        step++;
        if (step < commands.length) socket.write(commands[step]!);
        else socket.end();
      }
    });
    socket.on("end", () => resolve(replies));
    socket.on("error", reject);
  });
}

describe("doors answer after the commit", () => {
  test("HTTP: a write whose commit fails answers 500, not 201, and nothing is stored", async () => {
    failCommitWhen = () => count("SELECT count(*) AS n FROM contacts WHERE email = ?", "never@doors.test") > 0;
    const res = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { name: "Never stored", email: "never@doors.test" },
    });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 500, code: "internal_error", detail: expect.any(String) });
    expect(count("SELECT count(*) AS n FROM contacts WHERE email = ?", "never@doors.test")).toBe(0);
    // The next one commits and is answered as stored.
    const ok = await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { email: "kept@doors.test" } });
    expect(ok.status).toBe(201);
    expect(count("SELECT count(*) AS n FROM contacts WHERE email = ?", "kept@doors.test")).toBe(1);
  });

  test("SMTP: mail whose commit fails is not accepted with 250, so the sender retries", async () => {
    const raw = [
      "From: Carol <carol@customer.test>",
      "To: support@doors.test",
      "Subject: Durable or not",
      "Message-ID: <durable@customer.test>",
      "Date: Mon, 23 Nov 2026 10:00:00 +0000",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Hello.",
      "",
    ].join("\r\n");
    const session = () =>
      smtpSession([
        "EHLO client.test\r\n",
        "MAIL FROM:<carol@customer.test>\r\n",
        "RCPT TO:<support@doors.test>\r\n",
        "DATA\r\n",
        `${raw}\r\n.\r\n`,
        "QUIT\r\n",
      ]);
    failCommitWhen = () => count("SELECT count(*) AS n FROM tickets WHERE workspace_id = ?", workspace.id) > 0;
    const refused = await session();
    expect(refused.at(-2)).toMatch(/^4\d\d /);
    expect(count("SELECT count(*) AS n FROM tickets WHERE workspace_id = ?", workspace.id)).toBe(0);
    const accepted = await session();
    expect(accepted.at(-2)).toMatch(/^250 /);
    expect(count("SELECT count(*) AS n FROM tickets WHERE workspace_id = ?", workspace.id)).toBe(1);
  });
});
