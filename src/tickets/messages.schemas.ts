import { z } from "zod";
import { AttachmentSchema } from "../attachments/attachments.public";
import { TICKET_STATUSES } from "./tickets.table";
import { ContactRefSchema, oneBodyForm, UserRefSchema } from "./tickets.schemas";

export { AttachmentSchema };

export const MessageSchema = z.object({
  id: z.string(),
  ticket_id: z.string(),
  kind: z.enum(["reply", "note"]),
  direction: z.enum(["inbound", "outbound"]),
  author: z.object({
    type: z.enum(["contact", "user", "system", "api"]),
    user: UserRefSchema.nullable(),
    contact: ContactRefSchema.nullable(),
  }),
  body_html: z.string(),
  body_text: z.string(),
  has_quoted: z.boolean(),
  subject: z.string(),
  from_email: z.string(),
  from_name: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  attachments: z.array(AttachmentSchema),
  delivery_status: z.enum(["none", "pending", "sent", "failed", "bounced"]),
  delivery_error: z.string(),
  delivery_via: z
    .enum(["smtp", "outbox"])
    .nullable()
    .describe(
      "How a sent reply left Desk: `smtp` handed to a mail server (the mailbox's, its provider's or the DESK_SMTP_URL relay); `outbox` only written as an .eml file under the server's data dir because no relay is configured: it did NOT reach the recipient. null until a delivery outcome.",
    ),
  reply_to: z.string(),
  auth_failed: z.boolean(),
  form_sender: z.string(),
  forward: z
    .boolean()
    .describe(
      "true for a forward: an internal message (kind `note`) mailed to the third parties in `to`, `cc` and `bcc` with the conversation quoted; never sent to the contact",
    ),
  created_at: z.string(),
});

/** Cc and Bcc together: one reply or forward reaches at most this many extra addresses. */
export const MAX_EXTRA_RECIPIENTS = 50;
/** Forward recipients (To). */
export const MAX_FORWARD_TO = 10;

// z.email() admits no whitespace or control characters, so an address can never carry a header (CR/LF) into the mail.
const Address = z.email().max(320);
const recipients = (max: number, what: string) =>
  z.array(Address).max(max).describe(`${what}: at most ${max} addresses`);

/** Cc and Bcc share one cap (MAX_EXTRA_RECIPIENTS); the refusal points at bcc, the list that overflowed it. */
const capExtraRecipients = (body: { cc?: string[]; bcc?: string[] }, ctx: z.RefinementCtx): void => {
  if ((body.cc?.length ?? 0) + (body.bcc?.length ?? 0) > MAX_EXTRA_RECIPIENTS)
    ctx.addIssue({
      code: "custom",
      path: ["bcc"],
      message: `at most ${MAX_EXTRA_RECIPIENTS} Cc and Bcc addresses together`,
    });
};

export const AddMessageBody = z
  .object({
    kind: z.enum(["reply", "note"]),
    body_html: z.string().min(1).max(1_000_000).optional().describe("the body as HTML, sanitized before storage"),
    body_text: z
      .string()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe("the body as plain text instead of body_html; blank lines make paragraphs"),
    cc: recipients(MAX_EXTRA_RECIPIENTS, "copies of a reply, in the Cc header").optional(),
    bcc: recipients(
      MAX_EXTRA_RECIPIENTS,
      "blind copies of a reply: in the SMTP envelope only, never in a header; replies only",
    ).optional(),
    attachment_ids: z.array(z.string().max(100)).max(50).optional(),
    status: z.enum(TICKET_STATUSES).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    oneBodyForm(body, ctx, true);
    capExtraRecipients(body, ctx);
    if (body.kind === "note" && body.bcc?.length)
      ctx.addIssue({ code: "custom", path: ["bcc"], message: "a note is not mailed; Bcc is for replies" });
  });

export const ForwardBody = z
  .object({
    to: recipients(MAX_FORWARD_TO, "who receives the forward").min(1),
    cc: recipients(MAX_EXTRA_RECIPIENTS, "copies, in the Cc header").optional(),
    bcc: recipients(MAX_EXTRA_RECIPIENTS, "blind copies, in the SMTP envelope only").optional(),
    body_html: z
      .string()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe("an optional note above the quoted conversation, as HTML (sanitized)"),
    body_text: z.string().min(1).max(1_000_000).optional().describe("the note as plain text instead of body_html"),
    attachment_ids: z.array(z.string().max(100)).max(50).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    oneBodyForm(body, ctx, false);
    capExtraRecipients(body, ctx);
  });
