import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { previewArticle } from "./help-center.preview";
import { ArticlePreviewBody, ArticlePreviewSchema } from "./help-center.schemas";

/** The knowledge base editor's preview: an article as the help center would show it, stored or not. */
export function helpCenterPreviewRoutes(deps: Deps) {
  return new Elysia({ tags: ["help-center"] })
    .use(deps.guard)
    .post("/help-center/preview", async ({ ctx, body }) => ({ html: await previewArticle(deps, ctx, body) }), {
      access: { role: "agent", scopes: ["kb:write"] },
      body: ArticlePreviewBody,
      response: { 200: ArticlePreviewSchema },
      detail: {
        summary: "Preview an article as its help center page",
        description:
          "The whole HTML page the help center would serve for an article with this title and body (sanitized as saving would) in the collection named (404 for a collection of another workspace), themed with the workspace's help-center title, logo and brand colour, whether or not the help center is on. Nothing is stored and no view is counted. The page's only stylesheet is `/help/-/style.css?brand=…`, so it renders in a same-origin frame of the web app.",
      },
    });
}
