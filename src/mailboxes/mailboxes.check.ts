import type { RequestContext } from "../auth/context";
import { verifyImap } from "../mail/mail.imap";
import { verifySmtp } from "../mail/mail.send";
import { imapSettingsOf, smtpSettingsOf, type ConnectionDeps } from "./mailboxes.connection";
import { outboundVia } from "./mailboxes.present";
import { getMailbox, recordMailboxHealth } from "./mailboxes.service";

export type CheckResult = { ok: boolean; error: string };

async function check(run: () => Promise<void>): Promise<CheckResult> {
  try {
    await run();
    return { ok: true, error: "" };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** What the test answers for a system mailbox with no relay: nothing is delivered, so not ok. */
export const OUTBOX_ONLY =
  "No mail server to send through: DESK_SMTP_URL is not set, so replies from this mailbox are only written as .eml files to the outbox folder on the server and never reach the customer. Set DESK_SMTP_URL or give the mailbox its own SMTP server.";

/**
 * Really logs in to the mailbox's IMAP and SMTP servers. Forwarding mailboxes have nothing to
 * log in to inbound. System outbound without a relay cannot deliver: the test says so (never ok),
 * but that is configuration, not a fault of the mailbox, so it does not set the mailbox's status.
 * Otherwise the outcome updates status and last_error so the list shows what the test found.
 */
export async function testMailboxConnection(
  ctx: RequestContext,
  id: string,
  deps: ConnectionDeps,
): Promise<{ inbound: CheckResult; outbound: CheckResult }> {
  const row = getMailbox(deps.db, ctx, id);
  const inbound = await check(async () => {
    const settings = await imapSettingsOf(deps, row);
    if (settings) await verifyImap(settings);
  });
  const relayConfigured = deps.config.smtpRelayUrl !== null;
  const outboxOnly = outboundVia(row, relayConfigured) === "outbox";
  const outbound = outboxOnly
    ? { ok: false, error: OUTBOX_ONLY }
    : await check(async () => {
        const settings = await smtpSettingsOf(deps, row);
        if (settings) await verifySmtp({ ...settings, timeoutMs: 10_000 });
      });
  const failure = !inbound.ok ? inbound.error : !outbound.ok && !outboxOnly ? `SMTP: ${outbound.error}` : null;
  recordMailboxHealth(
    deps.db,
    row.id,
    failure ? { ok: false, error: failure } : { ok: true },
    relayConfigured,
    deps.clock,
  );
  return { inbound, outbound };
}
