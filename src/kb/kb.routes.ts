import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { completeList, completeListSchema, IdParams, NoContent, pageOfSchema } from "../http/schemas";
import { createArticle, deleteArticle, listArticles, requireArticle, updateArticle } from "./kb.articles.service";
import {
  createCollection,
  deleteCollection,
  listCollections,
  requireCollection,
  updateCollection,
} from "./kb.collections.service";
import { presentArticle, presentCollection } from "./kb.present";
import {
  ArticleListQuery,
  CreateArticleBody,
  CreateCollectionBody,
  KbArticleSchema,
  KbCollectionSchema,
  UpdateArticleBody,
  UpdateCollectionBody,
} from "./kb.schemas";

/** Viewers read (drafts included); admins and agents write; API keys by kb:read / kb:write. */
const read = { role: "viewer", scopes: ["kb:read"] } as const;
const write = { role: "agent", scopes: ["kb:write"] } as const;

export function kbCollectionsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/kb/collections", tags: ["knowledge-base"] })
    .use(deps.guard)
    .get(
      "/",
      async ({ ctx }) => completeList((await listCollections(deps.db, ctx.workspaceId)).map(presentCollection)),
      {
        access: read,
        response: { 200: completeListSchema(KbCollectionSchema) },
        detail: { summary: "All knowledge base collections of the workspace, by position then name" },
      },
    )
    .post(
      "/",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return presentCollection(await createCollection(ctx, body, deps));
      },
      {
        access: write,
        body: CreateCollectionBody,
        response: { 201: KbCollectionSchema },
        detail: {
          summary: "Create a collection",
          description:
            "The slug is derived from the name when not given (made unique with -2, -3, …) and never changes with a rename; a slug given that another collection has answers 409 conflict. Without a position the collection goes last.",
        },
      },
    )
    .get(
      "/:id",
      async ({ ctx, params }) => presentCollection(await requireCollection(deps.db, ctx.workspaceId, params.id)),
      {
        access: read,
        params: IdParams,
        response: { 200: KbCollectionSchema },
        detail: { summary: "A collection" },
      },
    )
    .patch(
      "/:id",
      async ({ ctx, params, body }) => presentCollection(await updateCollection(ctx, params.id, body, deps)),
      {
        access: write,
        params: IdParams,
        body: UpdateCollectionBody,
        response: { 200: KbCollectionSchema },
        detail: { summary: "Change a collection (name, slug, description, position)" },
      },
    )
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteCollection(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      {
        access: write,
        params: IdParams,
        response: { 204: NoContent },
        detail: {
          summary: "Delete an empty collection",
          description: "A collection that still holds articles answers 409 conflict: move or delete them first.",
        },
      },
    );
}

export function kbArticlesRoutes(deps: Deps) {
  return new Elysia({ prefix: "/kb/articles", tags: ["knowledge-base"] })
    .use(deps.guard)
    .get("/", async ({ ctx, query }) => await listArticles(deps.db, ctx, query), {
      access: read,
      query: ArticleListQuery,
      response: { 200: pageOfSchema(KbArticleSchema) },
      detail: {
        summary: "Articles of the workspace, drafts included",
        description:
          "By position then id, filtered by `collection_id` and `status`. With `q` (full-text, the last word a prefix) the matches come ranked by relevance on a single page of up to `limit`.",
      },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return presentArticle(await createArticle(ctx, body, deps));
      },
      {
        access: write,
        body: CreateArticleBody,
        response: { 201: KbArticleSchema },
        detail: {
          summary: "Create an article (a draft unless status is published)",
          description:
            "body_html is stored sanitized (scripts, event handlers, forms, iframes and unsafe URLs removed) and body_text is derived from it. The slug is derived from the title when not given and stays when the title changes; a taken slug given answers 409 conflict. `published_at` is set when the article is published.",
        },
      },
    )
    .get("/:id", async ({ ctx, params }) => presentArticle(await requireArticle(deps.db, ctx.workspaceId, params.id)), {
      access: read,
      params: IdParams,
      response: { 200: KbArticleSchema },
      detail: { summary: "An article, draft or published" },
    })
    .patch("/:id", async ({ ctx, params, body }) => presentArticle(await updateArticle(ctx, params.id, body, deps)), {
      access: write,
      params: IdParams,
      body: UpdateArticleBody,
      response: { 200: KbArticleSchema },
      detail: {
        summary: "Change an article; status published publishes it, draft takes it off the help center",
        description:
          "`published_at` is kept while the article stays published and cleared when it goes back to draft. Moving it to another collection without a position puts it last there.",
      },
    })
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteArticle(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      { access: write, params: IdParams, response: { 204: NoContent }, detail: { summary: "Delete an article" } },
    );
}
