import { z } from "zod";
import { PageQuery, pageOfSchema } from "../http/schemas";

export const TeamSchema = z.object({
  id: z.string(),
  name: z.string(),
  member_ids: z.array(z.string()),
  private: z.boolean(),
  created_at: z.string(),
});

export const TeamPage = pageOfSchema(TeamSchema);
export const TeamListQuery = PageQuery.strict();

const TeamName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((s) => !/[<>]/.test(s), "must not contain < or >");
const MemberIds = z.array(z.string().min(1).max(100)).max(1000);

export const CreateTeamBody = z
  .object({ name: TeamName, member_ids: MemberIds.default([]), private: z.boolean().default(false) })
  .strict();
export const UpdateTeamBody = z
  .object({ name: TeamName, member_ids: MemberIds, private: z.boolean() })
  .partial()
  .strict();
