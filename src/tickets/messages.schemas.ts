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
  created_at: z.string(),
});

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
    cc: z.array(z.email().max(320)).max(50).optional(),
    attachment_ids: z.array(z.string().max(100)).max(50).optional(),
    status: z.enum(TICKET_STATUSES).optional(),
  })
  .strict()
  .superRefine((body, ctx) => oneBodyForm(body, ctx, true));
