import type { mailboxes } from "./mailboxes.table";

export type MailboxRow = typeof mailboxes.$inferSelect;

/** The wire shape. Passwords and OAuth tokens are write-only: they never appear here. */
export function presentMailbox(row: MailboxRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    display_name: row.displayName,
    inbound_kind: row.inboundKind,
    outbound_kind: row.outboundKind,
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
