import { afterAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startDovecot } from "../../test/peers/dovecot";
import { mailboxes } from "../mailboxes/mailboxes.table";
import { execute, first, rowsOf } from "../db/store";

const dovecot = await startDovecot({ "alice@example.test": "alicepw" });
afterAll(() => dovecot.dispose());
// Jobs off: the test drives the sync job with drain(); the idle window is skipped in drains by RetryLater.
// The Dovecot peer listens on loopback, which a mailbox's IMAP host may reach only when listed.
const desk = await startTestDesk({ env: { DESK_JOBS: "off", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" } });
const { workspace, owner } = await createWorkspaceWithOwner(desk);

const raw = (n: number) =>
  `From: Carol <carol${n}@customer.test>\r\nTo: alice@example.test\r\nSubject: Imap ${n}\r\nMessage-ID: <imap-${n}@customer.test>\r\n\r\nBody ${n}\r\n`;
const subjects = async () =>
  (
    await rowsOf<{ subject: string }>(
      desk.deps.db,
      sql`SELECT subject FROM tickets WHERE workspace_id = ${workspace.id} ORDER BY number`,
    )
  ).map((r) => r.subject);
const runSync = async () => {
  await execute(
    desk.deps.db,
    sql`UPDATE jobs SET run_at = ${new Date(0).toISOString()} WHERE kind = 'mailbox.sync' AND state = 'queued'`,
  );
  const job = desk.jobs as unknown as { drain(): Promise<number> };
  // The job idles when the server offers IDLE; close its session shortly so drain returns.
  const closer = setTimeout(() => void import("./inbound.imap").then((m) => m.closeImapSessions(desk.deps.db)), 2000);
  await job.drain();
  clearTimeout(closer);
};

const created = await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: {
    name: "IMAP",
    email: "alice@example.test",
    inbound_kind: "imap",
    password: "alicepw",
    config: {
      imap_host: "127.0.0.1",
      imap_port: dovecot.imapPort,
      imap_username: "alice@example.test",
      imap_tls: "none",
    },
  },
});
const mailboxId: string = created.body.id;
const row = async () => first(await desk.deps.db.select().from(mailboxes).where(eq(mailboxes.id, mailboxId)).limit(1))!;

test("fetches new mail by UID, stores UIDVALIDITY, and never repeats after a restart of the position", async () => {
  dovecot.deliver("alice@example.test", raw(1));
  dovecot.deliver("alice@example.test", raw(2));
  await runSync();
  expect(await subjects()).toEqual(["Imap 1", "Imap 2"]);
  expect((await row()).imapLastUid).toBe(2);
  expect((await row()).imapUidValidity).toMatch(/^\d+$/);
  expect((await row()).lastSyncedAt).not.toBeNull();
  // A crash between ingest and saving the position: the UID rewinds, dedupe keeps it single.
  await desk.deps.db.update(mailboxes).set({ imapLastUid: 1 }).where(eq(mailboxes.id, mailboxId));
  dovecot.deliver("alice@example.test", raw(3));
  await runSync();
  expect(await subjects()).toEqual(["Imap 1", "Imap 2", "Imap 3"]);
  expect((await row()).imapLastUid).toBe(3);
}, 20_000);

test("Dovecot stopped: status error with a readable last_error; started again: recovers without loss", async () => {
  await dovecot.stop();
  await runSync();
  expect((await row()).status).toBe("error");
  expect((await row()).lastError).toMatch(/IMAP/);
  const events = await rowsOf<{ type: string }>(
    desk.deps.db,
    sql`SELECT type FROM events WHERE workspace_id = ${workspace.id} AND type = 'mailbox.updated'`,
  );
  expect(events.length).toBeGreaterThan(0);
  await dovecot.start();
  dovecot.deliver("alice@example.test", raw(4));
  await runSync();
  expect((await row()).lastError).toBe("");
  expect((await row()).status).toBe("active");
  expect((await row()).lastError).toBe("");
  expect(await subjects()).toEqual(["Imap 1", "Imap 2", "Imap 3", "Imap 4"]);
}, 20_000);
