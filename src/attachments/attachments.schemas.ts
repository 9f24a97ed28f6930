import { z } from "zod";

/** An attachment as every message presents it (the OpenAPI `Attachment`). */
export const AttachmentSchema = z.object({
  id: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size_bytes: z.number(),
  inline: z.boolean(),
  url: z.string(),
});
