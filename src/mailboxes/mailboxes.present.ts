import type { mailboxes } from "./mailboxes.table";

export type MailboxRow = typeof mailboxes.$inferSelect;

/**
 * How the mailbox's outbound mail leaves: `outbox` for a system mailbox while no DESK_SMTP_URL relay
 * is configured (replies are only written as .eml files under the data dir and reach no one).
 */
export const outboundVia = (row: Pick<MailboxRow, "outboundKind">, relayConfigured: boolean): "smtp" | "outbox" =>
  row.outboundKind === "system" && !relayConfigured ? "outbox" : "smtp";

/** The wire shape. Passwords and OAuth tokens are write-only: they never appear here. */
export function presentMailbox(row: MailboxRow, relayConfigured: boolean) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    display_name: row.displayName,
    inbound_kind: row.inboundKind,
    outbound_kind: row.outboundKind,
    outbound_via: outboundVia(row, relayConfigured),
    forwarding_address: row.forwardingAddress ?? "",
    config: { ...row.config },
    team_id: row.teamId ?? null,
    signature_html: row.signatureHtml,
    auto_reply_enabled: row.autoReplyEnabled,
    auto_reply_subject: row.autoReplySubject,
    auto_reply_html: row.autoReplyHtml,
    status: row.status,
    last_error: row.lastError,
    last_synced_at: row.lastSyncedAt ?? null,
    created_at: row.createdAt,
    trusted_form_senders: [...row.trustedFormSenders],
  };
}
