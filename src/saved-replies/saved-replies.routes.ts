import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { notFound } from "../lib/errors";
import { IdParams, completeList, completeListSchema } from "../http/schemas";
import {
  createSavedReply,
  deleteSavedReply,
  findSavedReply,
  listSavedReplies,
  presentSavedReply,
  updateSavedReply,
} from "./saved-replies.service";
import { SavedReplySchema } from "./saved-replies.schemas";

const read = { role: "viewer", scopes: ["tickets:read"] } as const;
const write = { role: "agent", scopes: ["tickets:write"] } as const;

const Shortcut = z
  .string()
  .regex(/^[\p{L}\p{N}_\-./]{1,50}$/u, "a shortcut is 1 to 50 letters, digits, - _ . / without spaces");
const CreateSavedReplyBody = z.strictObject({
  title: z.string().trim().min(1).max(200),
  shortcut: Shortcut.nullable().optional(),
  body_html: z.string().min(1).max(100_000),
});

export function savedRepliesRoutes(deps: Deps) {
  return new Elysia({ prefix: "/saved-replies", tags: ["saved-replies"] })
    .use(deps.guard)
    .get("/", async ({ ctx }) => completeList(await listSavedReplies(deps.db, ctx)), {
      access: read,
      response: { 200: completeListSchema(SavedReplySchema) },
      detail: { summary: "All saved replies of the workspace, by title" },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return presentSavedReply(await createSavedReply(ctx, body, deps));
      },
      {
        access: write,
        body: CreateSavedReplyBody,
        response: { 201: SavedReplySchema },
        detail: { summary: "Create a saved reply; body_html is sanitized; 409 conflict on a taken shortcut" },
      },
    )
    .get(
      "/:id",
      async ({ ctx, params }) => {
        const row = await findSavedReply(deps.db, ctx.workspaceId, params.id);
        if (!row) throw notFound("Saved reply");
        return presentSavedReply(row);
      },
      { access: read, params: IdParams, response: { 200: SavedReplySchema }, detail: { summary: "A saved reply" } },
    )
    .patch(
      "/:id",
      async ({ ctx, params, body }) => presentSavedReply(await updateSavedReply(ctx, params.id, body, deps)),
      {
        access: write,
        params: IdParams,
        body: CreateSavedReplyBody.partial(),
        response: { 200: SavedReplySchema },
        detail: { summary: "Change a saved reply" },
      },
    )
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteSavedReply(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      { access: write, params: IdParams, detail: { summary: "Delete a saved reply" } },
    );
}
