import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { notFound } from "../lib/errors";
import { presentArticleSummary, presentCollectionPage, presentHome, presentPublicArticle } from "./help-center.present";
import {
  HelpCenterCollectionSchema,
  HelpCenterHomeSchema,
  HelpCenterSearchSchema,
  HelpParams,
  HelpSearchQuery,
  HelpSlugParams,
  PublicArticleSchema,
} from "./help-center.schemas";
import { articlePageOf, collectionPageOf, homeOf, requireHelpCenter, searchOf } from "./help-center.service";

const OFF =
  "Published articles only. Every route answers 404 when the workspace is unknown or its help_center_enabled setting is not true; unknown, draft or unpublished articles and collections without a published article answer 404 too.";

/** The public help center's JSON (no credential; 120 requests a minute per address). */
export function helpCenterRoutes(deps: Deps) {
  const baseUrl = () => deps.config.baseUrl;
  return new Elysia({ prefix: "/public/help", tags: ["help-center"] })
    .use(deps.guard)
    .get(
      "/:workspace_slug",
      async ({ params }) => {
        const center = await requireHelpCenter(deps.db, baseUrl(), params.workspace_slug);
        return presentHome(center, await homeOf(deps.db, center));
      },
      {
        public: true,
        params: HelpParams,
        response: { 200: HelpCenterHomeSchema },
        detail: {
          summary: "The help center's home: its title, collections and featured articles",
          description: `${OFF} \`title\` is help_center_title, or the workspace name followed by "Help Center". Collections come by position with their count of published articles (empty ones left out); \`featured\` holds the six most read published articles. The same content is served as HTML pages (no JavaScript) at \`/help/{workspace_slug}\`, \`…/collections/{slug}\`, \`…/articles/{slug}\`, \`…/search?q=\` and \`…/sitemap.xml\`.`,
        },
      },
    )
    .get(
      "/:workspace_slug/collections/:slug",
      async ({ params }) => {
        const center = await requireHelpCenter(deps.db, baseUrl(), params.workspace_slug);
        const page = await collectionPageOf(deps.db, center, params.slug);
        if (!page) throw notFound("Collection");
        return presentCollectionPage(center, page);
      },
      {
        public: true,
        params: HelpSlugParams,
        response: { 200: HelpCenterCollectionSchema },
        detail: { summary: "A collection and its published articles, by position", description: OFF },
      },
    )
    .get(
      "/:workspace_slug/articles/:slug",
      async ({ params }) => {
        const center = await requireHelpCenter(deps.db, baseUrl(), params.workspace_slug);
        const page = await articlePageOf(deps.db, center, params.slug, true);
        if (!page) throw notFound("Article");
        return presentPublicArticle(center, page);
      },
      {
        public: true,
        params: HelpSlugParams,
        response: { 200: PublicArticleSchema },
        detail: {
          summary: "A published article; counts a view",
          description: `${OFF} Each answer adds one to the article's \`views\` (read by agents through /v1/kb/articles; the help center's HTML page counts too).`,
        },
      },
    )
    .get(
      "/:workspace_slug/search",
      async ({ params, query }) => {
        const center = await requireHelpCenter(deps.db, baseUrl(), params.workspace_slug);
        return { data: (await searchOf(deps.db, center, query.q)).map((a) => presentArticleSummary(center, a)) };
      },
      {
        public: true,
        params: HelpParams,
        query: HelpSearchQuery,
        response: { 200: HelpCenterSearchSchema },
        detail: {
          summary: "Published articles matching q, most relevant first (up to 20)",
          description: `${OFF} Every word must match the title or the text (the last one as a prefix); a title match weighs ten times a body match. An empty q matches nothing.`,
        },
      },
    );
}
