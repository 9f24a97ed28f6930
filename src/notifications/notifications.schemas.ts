import { z } from "zod";
import { PageQuery } from "../http/schemas";
import { EMAIL_PREFERENCES } from "./notifications.table";

export const NOTIFICATION_TYPES = [
  "assigned",
  "mentioned",
  "note_added",
  "customer_replied",
  "sla_breached",
  "ai_handoff",
  "ai_cap_reached",
  "ai_balance_low",
  "ai_balance_out",
  "auto_recharge_failed",
  "ai_key_failed",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NotificationSchema = z.object({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  ticket: z.object({ id: z.string(), number: z.number().int(), subject: z.string() }).nullable(),
  data: z.record(z.string(), z.unknown()),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type NotificationWire = z.infer<typeof NotificationSchema>;

export const NotificationListQuery = PageQuery.extend({
  unread: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional(),
}).strict();

export const NotificationPage = z.object({
  data: z.array(NotificationSchema),
  next_cursor: z.string().nullable(),
  unread_count: z.number().int().describe("the caller's unread notifications in this workspace"),
});

const Ids = z.array(z.string().min(1).max(100)).min(1).max(500);
/** `{ ids }` or `{ all: true }` (one of them; checked in the service so the error names the field). */
export const MarkReadBody = z.strictObject({ ids: Ids.optional(), all: z.literal(true).optional() });
export const MarkReadAnswer = z.object({ updated: z.number().int(), unread_count: z.number().int() });

export const NotificationPreferences = z.strictObject({
  email: z
    .enum(EMAIL_PREFERENCES)
    .describe("immediately: one email per notification; digest: one email a day (08:00 UTC); off: none"),
});
