import { z } from "zod";

export const SavedReplySchema = z.object({
  id: z.string(),
  title: z.string(),
  shortcut: z.string().nullable(),
  body_html: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
