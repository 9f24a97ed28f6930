import { z } from "zod";
import { INBOUND_KINDS, OUTBOUND_KINDS } from "./mailboxes.table";

const TlsMode = z.enum(["tls", "starttls", "none"]);
const Host = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.\-:[\]]+$/, "Enter a host name or IP address.");

export const MailboxConfigSchema = z
  .object({
    imap_host: Host.optional(),
    imap_port: z.number().int().min(1).max(65535).optional(),
    imap_username: z.string().max(320).optional(),
    imap_tls: TlsMode.optional(),
    smtp_host: Host.optional(),
    smtp_port: z.number().int().min(1).max(65535).optional(),
    smtp_username: z.string().max(320).optional(),
    smtp_tls: TlsMode.optional(),
    oauth_email: z.string().max(320).optional(),
  })
  .strict();

const Email = z.string().trim().max(320).pipe(z.email());
const HtmlText = z.string().max(50_000);

const writable = {
  name: z.string().trim().min(1).max(100),
  email: Email,
  display_name: z.string().trim().max(100),
  inbound_kind: z.enum(INBOUND_KINDS),
  outbound_kind: z.enum(OUTBOUND_KINDS),
  config: MailboxConfigSchema,
  team_id: z.string().max(100).nullable(),
  signature_html: HtmlText,
  auto_reply_enabled: z.boolean(),
  auto_reply_subject: z.string().max(200),
  auto_reply_html: HtmlText,
  trusted_form_senders: z.array(z.string().trim().min(1).max(320)).max(50),
  password: z.string().min(1).max(1000),
  smtp_password: z.string().min(1).max(1000),
};

export const CreateMailboxBody = z
  .object({
    ...writable,
    display_name: writable.display_name.optional(),
    inbound_kind: writable.inbound_kind.default("forwarding"),
    outbound_kind: writable.outbound_kind.default("system"),
    config: writable.config.default({}),
    team_id: writable.team_id.optional(),
    signature_html: writable.signature_html.optional(),
    auto_reply_enabled: writable.auto_reply_enabled.optional(),
    auto_reply_subject: writable.auto_reply_subject.optional(),
    auto_reply_html: writable.auto_reply_html.optional(),
    trusted_form_senders: writable.trusted_form_senders.optional(),
    password: writable.password.optional(),
    smtp_password: writable.smtp_password.optional(),
  })
  .strict();
export type CreateMailboxInput = z.infer<typeof CreateMailboxBody>;

export const UpdateMailboxBody = z
  .object({
    name: writable.name.optional(),
    email: writable.email.optional(),
    display_name: writable.display_name.optional(),
    inbound_kind: writable.inbound_kind.optional(),
    outbound_kind: writable.outbound_kind.optional(),
    config: writable.config.optional(),
    team_id: writable.team_id.optional(),
    signature_html: writable.signature_html.optional(),
    auto_reply_enabled: writable.auto_reply_enabled.optional(),
    auto_reply_subject: writable.auto_reply_subject.optional(),
    auto_reply_html: writable.auto_reply_html.optional(),
    trusted_form_senders: writable.trusted_form_senders.optional(),
    status: z.enum(["active", "disabled"]).optional(),
    password: writable.password.optional(),
    smtp_password: writable.smtp_password.optional(),
  })
  .strict();
export type UpdateMailboxInput = z.infer<typeof UpdateMailboxBody>;

export const MailboxSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  display_name: z.string(),
  inbound_kind: z.enum(INBOUND_KINDS),
  outbound_kind: z.enum(OUTBOUND_KINDS),
  outbound_via: z
    .enum(["smtp", "outbox"])
    .describe(
      "`outbox`: a system mailbox while the server has no DESK_SMTP_URL relay; its replies are only written as .eml files on the server and reach no one",
    ),
  forwarding_address: z.string(),
  config: z.record(z.string(), z.unknown()),
  team_id: z.string().nullable(),
  signature_html: z.string(),
  auto_reply_enabled: z.boolean(),
  auto_reply_subject: z.string(),
  auto_reply_html: z.string(),
  status: z.enum(["active", "error", "disabled"]),
  last_error: z.string(),
  last_synced_at: z.string().nullable(),
  created_at: z.string(),
  trusted_form_senders: z.array(z.string()),
});

export const MailboxListSchema = z.object({ data: z.array(MailboxSchema), next_cursor: z.string().nullable() });

const Check = z.object({
  ok: z.boolean(),
  category: z
    .enum([
      "host_not_allowed",
      "host_not_found",
      "connection_refused",
      "timeout",
      "tls_failed",
      "auth_failed",
      "connection_closed",
      "protocol_error",
      "not_configured",
    ])
    .nullable(),
  error: z.string(),
});
export const MailboxTestResultSchema = z.object({ inbound: Check, outbound: Check });

export const OAuthProviderParams = z.object({ provider: z.enum(["provider_a", "provider_b"]) });
export const OAuthStartBody = z
  .object({ name: writable.name, email: Email.optional(), mailbox_id: z.string().max(100).optional() })
  .strict();
export const OAuthStartResult = z.object({ url: z.string() });
export const OAuthCallbackQuery = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
});
