import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { DeskError, invalidAt, notFound, unauthorized } from "../lib/errors";
import { IdParams } from "../http/schemas";
import { AttachmentSchema } from "./attachments.schemas";
import {
  attachmentKey,
  attachmentLinks,
  findAttachment,
  presentAttachment,
  storeUploadedFile,
} from "./attachments.service";

const INLINE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/plain"];

export function attachmentsRoutes(deps: Deps) {
  const links = attachmentLinks(deps);
  return new Elysia({ tags: ["attachments"] })
    .use(deps.guard)
    .post(
      "/attachments",
      async ({ ctx, request, set }) => {
        let form: FormData;
        try {
          form = await request.formData();
        } catch {
          throw invalidAt("body", "Send multipart/form-data with the file in field `file`.");
        }
        const file = form.get("file");
        if (!(file instanceof Blob)) throw invalidAt("body.file", "Field `file` must hold a file.");
        const row = await storeUploadedFile(ctx, file, deps);
        set.status = 201;
        return presentAttachment(row, links);
      },
      {
        access: { role: "agent", scopes: ["tickets:write"] },
        parse: "none",
        response: { 201: AttachmentSchema },
        detail: {
          summary: "Upload a file (multipart field `file`, at most 25 MB); unattached until a message references it",
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  properties: { file: { type: "string", format: "binary" } },
                  required: ["file"],
                },
              },
            },
          },
          responses: { 422: { description: "No file in field `file`" } },
        },
      },
    )
    .get(
      "/attachments/:id/content",
      async ({ params, query }) => {
        const claims = await deps.tokens.verify<{ sub?: string; ws?: string }>(query.token, "attachment");
        if (!claims) throw unauthorized("The link has expired or is invalid.");
        if (claims.sub !== params.id || typeof claims.ws !== "string") throw notFound("Attachment");
        const row = await findAttachment(deps.db, claims.ws, params.id);
        const file = await deps.blobs.get(attachmentKey(row));
        if (!file) throw new DeskError(404, "not_found", "Attachment not found.");
        const disposition = INLINE_TYPES.includes(row.contentType) ? "inline" : "attachment";
        const asciiName = row.filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
        return new Response(file, {
          headers: {
            "content-type": row.contentType === "text/plain" ? "text/plain; charset=utf-8" : row.contentType,
            "content-length": String(row.sizeBytes),
            "content-disposition": `${disposition}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(row.filename)}`,
            "x-content-type-options": "nosniff",
            "content-security-policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
            "cache-control": "private, max-age=300",
            "referrer-policy": "no-referrer",
          },
        });
      },
      {
        params: IdParams,
        query: z.object({ token: z.string().min(1).max(2000) }),
        detail: {
          summary: "The file behind a signed link (no other credential needed)",
          responses: {
            200: {
              description: "The file, with its own content type",
              content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
            },
            401: { description: "The link has expired or is invalid" },
          },
        },
      },
    );
}
