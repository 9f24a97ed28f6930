import { z } from "zod";
import { PageQuery, pageOfSchema } from "../http/schemas";

const UserRef = z.object({ id: z.string(), name: z.string(), email: z.string(), avatar_url: z.string().nullable() });

export const InvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(["admin", "agent", "viewer"]),
  expires_at: z.string(),
  created_at: z.string(),
  invited_by: UserRef.nullable(),
});

export const CreatedInvitationSchema = InvitationSchema.extend({
  url: z.string(),
  mail_via: z
    .enum(["relay", "outbox"])
    .describe(
      "where this server sends the invitation mail: `relay` (DESK_SMTP_URL) or `outbox` (only written to <data dir>/outbox: nobody receives it, so share the link)",
    ),
});
export const InvitationPage = pageOfSchema(InvitationSchema);
export const InvitationListQuery = PageQuery.strict();

export const CreateInvitationBody = z
  .object({
    email: z
      .string()
      .trim()
      .max(254)
      .pipe(z.email())
      .transform((s) => s.toLowerCase()),
    role: z.enum(["admin", "agent", "viewer"]),
  })
  .strict();

export const LookupQuery = z.object({ token: z.string().min(1).max(200) }).strict();

export const LookupSchema = z.object({
  workspace: z.object({ id: z.string(), name: z.string() }),
  email: z.string(),
  role: z.enum(["admin", "agent", "viewer"]),
  expires_at: z.string(),
});

export const AcceptInvitationBody = z
  .object({
    token: z.string().min(1).max(200),
    name: z.string().trim().min(1).max(100).optional(),
    password: z.string().min(8).max(200).optional(),
  })
  .strict();
