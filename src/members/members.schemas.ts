import { z } from "zod";
import { PageQuery, pageOfSchema } from "../http/schemas";

export const MemberSchema = z.object({
  user: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    avatar_url: z.string().nullable(),
    avatar_source: z.string().nullable(),
  }),
  role: z.enum(["owner", "admin", "agent", "viewer"]),
  availability: z.enum(["online", "away", "offline"]),
  presence: z.enum(["online", "away", "offline"]),
  max_open_tickets: z.number().nullable(),
  open_tickets: z.number(),
  last_seen_at: z.string().nullable(),
  created_at: z.string(),
});

export const MemberPage = pageOfSchema(MemberSchema);
export const MemberListQuery = PageQuery.extend({
  role: z.enum(["owner", "admin", "agent", "viewer"]).optional(),
}).strict();
export const MemberParams = z.object({ user_id: z.string().min(1).max(100) });
export const UpdateMemberBody = z.object({ role: z.enum(["owner", "admin", "agent", "viewer"]) }).strict();
