import {
  createdAt,
  flag,
  id,
  index,
  integer,
  json,
  table,
  text,
  timestamp,
  uniqueIndex,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

export type MailboxConfig = {
  imap_host?: string;
  imap_port?: number;
  imap_username?: string;
  imap_tls?: "tls" | "starttls" | "none";
  smtp_host?: string;
  smtp_port?: number;
  smtp_username?: string;
  smtp_tls?: "tls" | "starttls" | "none";
  oauth_email?: string;
};

export const INBOUND_KINDS = ["forwarding", "imap", "provider_a", "provider_b"] as const;
export const OUTBOUND_KINDS = ["smtp", "provider_a", "provider_b", "system"] as const;
export type InboundKind = (typeof INBOUND_KINDS)[number];
export type OutboundKind = (typeof OUTBOUND_KINDS)[number];
export type OAuthProvider = "provider_a" | "provider_b";

export const mailboxesTable = table(
  "mailboxes",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    /** Lower-cased; unique across the instance because inbound mail is routed by it. */
    email: text("email").notNull(),
    displayName: text("display_name").notNull().default(""),
    inboundKind: text("inbound_kind", { enum: INBOUND_KINDS }).notNull(),
    outboundKind: text("outbound_kind", { enum: OUTBOUND_KINDS }).notNull(),
    forwardingAddress: text("forwarding_address"),
    config: json<MailboxConfig>("config").notNull().default({}),
    teamId: text("team_id"),
    signatureHtml: text("signature_html").notNull().default(""),
    autoReplyEnabled: flag("auto_reply_enabled"),
    autoReplySubject: text("auto_reply_subject").notNull().default(""),
    autoReplyHtml: text("auto_reply_html").notNull().default(""),
    status: text("status", { enum: ["active", "error", "disabled"] })
      .notNull()
      .default("active"),
    lastError: text("last_error").notNull().default(""),
    lastSyncedAt: timestamp("last_synced_at"),
    trustedFormSenders: json<string[]>("trusted_form_senders").notNull().default([]),
    /** Write-only secrets, sealed with deps.secrets. */
    passwordSealed: text("password_sealed"),
    smtpPasswordSealed: text("smtp_password_sealed"),
    /** Sealed JSON `{ access_token, refresh_token, expires_at }` of an OAuth-connected mailbox. */
    oauthSealed: text("oauth_sealed"),
    /** IMAP position: the folder's UIDVALIDITY and the last UID ingested. */
    imapUidValidity: text("imap_uid_validity"),
    imapLastUid: integer("imap_last_uid").notNull().default(0),
    /** Consecutive failed syncs, for the poller's backoff. */
    syncFailures: integer("sync_failures").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("mailboxes_workspace_idx").on(t.workspaceId, t.createdAt),
    uniqueIndex("mailboxes_email_unique").on(t.email),
    uniqueIndex("mailboxes_forwarding_unique").on(t.forwardingAddress),
  ],
);

/** A started OAuth connection: the state token the provider hands back, with its PKCE verifier. */
export const mailboxOAuthStatesTable = table("mailbox_oauth_states", {
  state: text("state").primaryKey(),
  workspaceId: workspaceId(),
  provider: text("provider", { enum: ["provider_a", "provider_b"] }).notNull(),
  codeVerifier: text("code_verifier").notNull(),
  name: text("name").notNull(),
  email: text("email"),
  mailboxId: text("mailbox_id"),
  createdBy: text("created_by"),
  expiresAt: text("expires_at").notNull(),
});
