import { z } from "zod";
import { SCOPES } from "../auth/context";
import { PageQuery, pageOfSchema, Timestamp } from "../http/schemas";

export const CreateApiKeyBody = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.enum(SCOPES)).min(1),
  expires_at: Timestamp.nullable().optional(),
});

const UserRef = z.object({ id: z.string(), name: z.string(), email: z.string(), avatar_url: z.string().nullable() });

export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  created_by: UserRef.nullable(),
});

export const CreatedApiKeySchema = ApiKeySchema.extend({ secret: z.string() });

export const UpdateApiKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    scopes: z.array(z.enum(SCOPES)).min(1),
    expires_at: Timestamp.nullable(),
  })
  .partial()
  .strict();

export const ApiKeyListQuery = PageQuery.strict();
export const ApiKeyPage = pageOfSchema(ApiKeySchema);
