import { z } from "zod";

export const CreateWorkspaceBody = z.object({
  name: z.string().trim().min(1).max(100),
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,47}$/, "lowercase letters, digits and dashes").optional(),
});

export const WorkspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  widget_key: z.string(),
  settings: z.record(z.string(), z.unknown()),
  avatar_url: z.string().nullable(),
  avatar_source: z.enum(["upload"]).nullable(),
  images: z.record(z.string(), z.string().nullable()),
  created_at: z.string(),
});
