import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { IdParams, completeList, completeListSchema } from "../http/schemas";
import { CreateViewBody, UpdateViewBody, ViewSchema } from "./views.schemas";
import { createView, deleteView, findVisibleView, listVisibleViews, presentView, updateView } from "./views.service";

const read = { role: "viewer", scopes: ["tickets:read"] } as const;
const write = { role: "viewer", scopes: ["tickets:write"] } as const;

export function viewsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/views", tags: ["views"] })
    .use(deps.guard)
    .get("/", async ({ ctx }) => completeList(await listVisibleViews(deps.db, ctx)), {
      access: read,
      response: { 200: completeListSchema(ViewSchema) },
      detail: { summary: "Shared views and the caller's personal views, by position" },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return presentView(await createView(ctx, body, deps));
      },
      {
        access: write,
        body: CreateViewBody,
        response: { 201: ViewSchema },
        detail: { summary: "Create a view; shared views need an admin (or a key)" },
      },
    )
    .get("/:id", async ({ ctx, params }) => await findVisibleView(deps.db, ctx, params.id), {
      access: read,
      params: IdParams,
      response: { 200: ViewSchema },
      detail: { summary: "A view; another person's personal view answers 404" },
    })
    .patch("/:id", async ({ ctx, params, body }) => presentView(await updateView(ctx, params.id, body, deps)), {
      access: write,
      params: IdParams,
      body: UpdateViewBody,
      response: { 200: ViewSchema },
      detail: { summary: "Change a view (shared views: admins only)" },
    })
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteView(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      { access: write, params: IdParams, detail: { summary: "Delete a view" } },
    );
}
