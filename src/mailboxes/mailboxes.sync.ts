import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/database";
import type { Deps } from "../deps";
import { defineJob, RetryLater } from "../jobs/define";
import { connectImap, fetchNewMessages, describeImapError } from "../mail/mail.imap";
import { ingestEmail } from "../inbound/inbound.service";
import { imapSettingsOf } from "./mailboxes.connection";
import { MAILBOX_SYNC_JOB, recordMailboxHealth } from "./mailboxes.service";
import { mailboxes } from "./mailboxes.table";
import type { ImapFlow } from "imapflow";

/** How long one run may sit in IDLE before handing the slot back (the job's lease is longer). */
export const IDLE_WINDOW_MS = 60_000;
export const POLL_INTERVAL_MS = 60_000;
const MAX_BACKOFF_MS = 30 * 60_000;

/** Open IMAP sessions per database, so stopping Desk ends IDLE at once instead of waiting. */
const openSessions = new WeakMap<Db, Set<ImapFlow>>();

/** Sessions closed on purpose (shutdown): their end is not a mailbox failure. */
const closedOnPurpose = new WeakSet<ImapFlow>();

export function closeImapSessions(db: Db): void {
  for (const client of openSessions.get(db) ?? []) {
    closedOnPurpose.add(client);
    client.close();
  }
}

const backoffFor = (failures: number) => Math.min(MAX_BACKOFF_MS, 5_000 * 2 ** Math.max(0, failures - 1));

/**
 * One durable job per IMAP or provider mailbox (unique key `mailbox-sync:<id>`). Each run fetches
 * everything above the stored UID, then waits in IDLE (when offered) for new mail until the idle
 * window ends, or sleeps until the next poll; it then reschedules itself. Failures set status
 * error with a readable last_error and back off exponentially; success sets it active again.
 */
export function mailboxSyncJob(deps: Deps, options: { idleWindowMs?: number; pollIntervalMs?: number } = {}) {
  return defineJob({
    name: MAILBOX_SYNC_JOB,
    schema: z.object({ mailbox_id: z.string() }),
    concurrency: 50,
    leaseMs: 10 * 60_000,
    async handler(payload, run) {
      const row = deps.db.select().from(mailboxes).where(eq(mailboxes.id, payload.mailbox_id)).get();
      if (!row || row.status === "disabled" || row.inboundKind === "forwarding") return;
      const log = run.logger.child({ mailbox_id: row.id });
      let client: ImapFlow | null = null;
      const sessions = openSessions.get(deps.db) ?? new Set<ImapFlow>();
      openSessions.set(deps.db, sessions);
      try {
        const settings = await imapSettingsOf(deps, row);
        if (!settings) return;
        client = await connectImap(settings);
        sessions.add(client);
        const sync = async () => {
          const current = deps.db.select().from(mailboxes).where(eq(mailboxes.id, row.id)).get();
          if (!current || !client) return;
          const { fetched } = await fetchNewMessages(
            client,
            { uidValidity: current.imapUidValidity, lastUid: current.imapLastUid },
            async (raw) => {
              await ingestEmail(deps, { raw, mailbox: current });
            },
            (position) =>
              deps.db
                .update(mailboxes)
                .set({ imapUidValidity: position.uidValidity, imapLastUid: position.lastUid })
                .where(eq(mailboxes.id, row.id))
                .run(),
          );
          recordMailboxHealth(
            deps.db,
            row.id,
            { ok: true, syncedAt: deps.clock.now().toISOString() },
            deps.config.smtpRelayUrl !== null,
            deps.clock,
          );
          if (fetched) log.info({ fetched }, "imap: fetched messages");
        };
        await sync();
        const idleWindow = options.idleWindowMs ?? IDLE_WINDOW_MS;
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
        throw new RetryLater(options.pollIntervalMs ?? POLL_INTERVAL_MS, "next poll");
      } catch (error) {
        if (error instanceof RetryLater) throw error;
        if (client && closedOnPurpose.has(client)) throw new RetryLater(1_000, "session closed for shutdown");
        const message = describeImapError(error);
        const updated = recordMailboxHealth(
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
}
