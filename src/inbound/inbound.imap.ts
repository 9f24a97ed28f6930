import { z } from "zod";
import type { Db, Tx } from "../db/database";
import { deskState } from "../db/desk-state";
import { onEvent } from "../events/bus";
import { enqueue } from "../jobs/enqueue";
import type { Deps } from "../deps";
import { defineJob, type JobContext, RetryLater } from "../jobs/define";
import { connectImap, fetchNewMessages, describeImapError } from "../mail/mail.imap";
import { recordImapSync } from "../metrics/metrics";
import { ingestEmail } from "./inbound.service";
import {
  mailboxCreated,
  mailboxUpdated,
  imapSettingsOf,
  mailboxById,
  recordMailboxHealth,
  setImapPosition,
  type MailboxRow,
} from "../mailboxes/mailboxes.public";
import type { ImapFlow } from "imapflow";

/** How long one run may sit in IDLE before handing the slot back (the job's lease is longer). */
export const IDLE_WINDOW_MS = 60_000;
export const POLL_INTERVAL_MS = 60_000;
const MAX_BACKOFF_MS = 30 * 60_000;

/** Each desk's open IMAP sessions, on its runtime, so stopping it ends IDLE at once instead of waiting. */
const openSessionsOf = deskState("inbound.imap-sessions", () => new Set<ImapFlow>());

/** Sessions closed on purpose (shutdown): their end is not a mailbox failure. */
const closedOnPurpose = new WeakSet<ImapFlow>();

export function closeImapSessions(db: Db): void {
  for (const client of openSessionsOf(db)) {
    closedOnPurpose.add(client);
    client.close();
  }
}

const backoffFor = (failures: number) => Math.min(MAX_BACKOFF_MS, 5_000 * 2 ** Math.max(0, failures - 1));

/**
 * The IMAP door of inbound mail, beside the SMTP receiver and POST /v1/inbound/email: every message
 * goes through the same ingestEmail. One durable job per IMAP or provider mailbox (unique key `mailbox-sync:<id>`). Each run fetches
 * everything above the stored UID, then waits in IDLE (when offered) for new mail until the idle
 * window ends, or sleeps until the next poll; it then reschedules itself. Failures set status
 * error with a readable last_error and back off exponentially; success sets it active again.
 */
export const mailboxSyncJob = defineJob({
  name: "mailbox.sync",
  schema: z.object({ mailbox_id: z.string() }),
  concurrency: 50,
  leaseMs: 10 * 60_000,
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    const row = await mailboxById(deps.db, payload.mailbox_id);
    if (!row || row.status === "disabled" || row.inboundKind === "forwarding") return;
    const log = run.logger.child({ mailbox_id: row.id });
    let client: ImapFlow | null = null;
    const sessions = openSessionsOf(deps.db);
    try {
      const settings = await imapSettingsOf(deps, row);
      if (!settings) return;
      client = await connectImap(settings);
      sessions.add(client);
      const sync = async () => {
        const current = await mailboxById(deps.db, row.id);
        if (!current || !client) return;
        const { fetched } = await fetchNewMessages(
          client,
          { uidValidity: current.imapUidValidity, lastUid: current.imapLastUid },
          async (raw) => {
            await ingestEmail(deps, { raw, mailbox: current });
          },
          async (position) => await setImapPosition(deps.db, row.id, position),
        );
        recordImapSync("ok");
        await recordMailboxHealth(
          deps.db,
          row.id,
          { ok: true, syncedAt: deps.clock.now().toISOString() },
          deps.config.smtpRelayUrl !== null,
          deps.clock,
        );
        if (fetched) log.info({ fetched }, "imap: fetched messages");
      };
      await sync();
      const idleWindow = IDLE_WINDOW_MS;
      if (client.capabilities.has("IDLE") && idleWindow > 0) {
        const until = performance.now() + idleWindow;
        let pending = false;
        client.on("exists", () => {
          pending = true;
          // Any command ends IDLE; the loop then fetches what arrived.
          void client?.noop().catch(() => {});
        });
        while (performance.now() < until && client.usable && !run.signal.aborted) {
          const timer = setTimeout(() => void client?.noop().catch(() => {}), Math.max(0, until - performance.now()));
          await client.idle();
          clearTimeout(timer);
          if (pending) {
            pending = false;
            await sync();
          }
        }
        if (!client.usable && !run.signal.aborted && performance.now() < until)
          throw new Error("IMAP connection closed");
        throw new RetryLater(0, "idle window over");
      }
      throw new RetryLater(POLL_INTERVAL_MS, "next poll");
    } catch (error) {
      if (error instanceof RetryLater) throw error;
      if (client && closedOnPurpose.has(client)) throw new RetryLater(1_000, "session closed for shutdown");
      const message = describeImapError(error);
      recordImapSync("failed");
      const updated = await recordMailboxHealth(
        deps.db,
        row.id,
        { ok: false, error: message },
        deps.config.smtpRelayUrl !== null,
        deps.clock,
      );
      const delay = backoffFor(updated?.syncFailures ?? 1);
      log.warn({ err: message, retry_in_ms: delay }, "imap: sync failed");
      throw new RetryLater(delay, message);
    } finally {
      if (client) {
        sessions.delete(client);
        await client.logout().catch(() => client?.close());
      }
    }
  },
});

/** A mailbox that fetches mail itself gets one durable sync job (unique per mailbox). */
export async function scheduleMailboxSync(tx: Tx, row: MailboxRow, runAt?: Date): Promise<void> {
  if (row.status === "disabled" || row.inboundKind === "forwarding") return;
  await enqueue(
    tx,
    mailboxSyncJob,
    { mailbox_id: row.id },
    { uniqueKey: `mailbox-sync:${row.id}`, workspaceId: row.workspaceId, maxAttempts: 2_000_000_000, runAt },
  );
}

/**
 * The IMAP door's outbox row: a mailbox created, changed or reconnected gets its sync job in the
 * same transaction as its event (a job already queued or running for it is kept: the key is unique).
 */
export function registerMailboxSyncScheduling(db: Db): void {
  onEvent(db, [mailboxCreated, mailboxUpdated], async (tx, event) => {
    const row = await mailboxById(tx, event.data.mailbox.id);
    if (row) await scheduleMailboxSync(tx, row);
  });
}
