import { z } from "zod";

export const NOTIFICATION_TYPES = [
  "assigned",
  "mentioned",
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
