import { z } from "zod";
import { PageQuery, pageOfSchema, Timestamp } from "../http/schemas";

const UserRef = z.object({ id: z.string(), name: z.string(), email: z.string(), avatar_url: z.string().nullable() });

export const AuditLogSchema = z.object({
  id: z.string(),
  actor: z.object({
    type: z.enum(["user", "api_key", "system"]),
    user: UserRef.nullable(),
    api_key_id: z.string().nullable(),
  }),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  created_at: z.string(),
});

export const AuditLogPage = pageOfSchema(AuditLogSchema);

export const AuditLogQuery = PageQuery.extend({
  action: z.string().min(1).max(100).optional(),
  entity_type: z.string().min(1).max(100).optional(),
  entity_id: z.string().min(1).max(100).optional(),
  actor_user_id: z.string().min(1).max(100).optional(),
  from: Timestamp.optional(),
  to: Timestamp.optional(),
}).strict();

export type AuditLogQueryInput = z.infer<typeof AuditLogQuery>;
