import type { RequestContext } from "../auth/context";
import { verifyImap } from "../mail/mail.imap";
import { verifySmtp } from "../mail/mail.send";
import { imapSettingsOf, smtpSettingsOf, type ConnectionDeps } from "./mailboxes.connection";
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

/**
 * Really logs in to the mailbox's IMAP and SMTP servers. Forwarding mailboxes have nothing to
 * log in to inbound; system outbound without a relay writes to the outbox, which always works.
 * The outcome updates status and last_error so the list shows what the test found.
 */
export async function testMailboxConnection(ctx: RequestContext, id: string, deps: ConnectionDeps): Promise<{ inbound: CheckResult; outbound: CheckResult }> {
  const row = getMailbox(deps.db, ctx, id);
  const inbound = await check(async () => {
    const settings = await imapSettingsOf(deps, row);
    if (settings) await verifyImap(settings);
  });
  const outbound = await check(async () => {
    const settings = await smtpSettingsOf(deps, row);
    if (settings) await verifySmtp({ ...settings, timeoutMs: 10_000 });
  });
  const failure = !inbound.ok ? inbound.error : !outbound.ok ? `SMTP: ${outbound.error}` : null;
  recordMailboxHealth(deps.db, row.id, failure ? { ok: false, error: failure } : { ok: true });
  return { inbound, outbound };
}
