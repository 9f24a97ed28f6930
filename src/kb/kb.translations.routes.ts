import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { completeList, completeListSchema, IdParams, NoContent } from "../http/schemas";
import {
  KbArticleTranslationListItemSchema,
  KbArticleTranslationSchema,
  PutTranslationBody,
  TranslationParams,
} from "./kb.schemas";
import {
  deleteTranslation,
  getTranslation,
  listTranslations,
  presentTranslation,
  putTranslation,
} from "./kb.translations";

/** The same guards as the articles: viewers read, admins and agents write; API keys by kb:read / kb:write. */
const read = { role: "viewer", scopes: ["kb:read"] } as const;
const write = { role: "agent", scopes: ["kb:write"] } as const;

const LOCALE_RULE =
  "`locale` is a BCP 47 tag of one of the help center's languages (WorkspaceSettings `locales`) other than the workspace's own `locale`, which is the article's; anything else answers 422 at `params.locale`. Another workspace's article answers 404.";

export function kbTranslationsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/kb/articles", tags: ["knowledge-base"] })
    .use(deps.guard)
    .get(
      "/:id/translations",
      async ({ ctx, params }) => completeList(await listTranslations(deps.db, ctx, params.id)),
      {
        access: read,
        params: IdParams,
        response: { 200: completeListSchema(KbArticleTranslationListItemSchema) },
        detail: {
          summary: "Every translation of an article, drafts included, by locale",
          description:
            "Each translation with `outdated`: true when the article changed (its `updated_at`) after the translation was last saved. The help center shows a published translation on its pages in that language, outdated or not; a language without one shows the article itself, marked with its own `lang`.",
        },
      },
    )
    .get(
      "/:id/translations/:locale",
      async ({ ctx, params }) => presentTranslation(await getTranslation(deps.db, ctx, params.id, params.locale)),
      {
        access: read,
        params: TranslationParams,
        response: { 200: KbArticleTranslationSchema },
        detail: {
          summary: "An article's translation into one language",
          description: `404 when the article has none in that language. Any shipped language other than the article's own may be read (a translation kept after its language left the help center included).`,
        },
      },
    )
    .put(
      "/:id/translations/:locale",
      async ({ ctx, params, body, set }) => {
        const { row, created } = await putTranslation(ctx, params.id, params.locale, body, deps);
        set.status = created ? 201 : 200;
        return presentTranslation(row);
      },
      {
        access: write,
        params: TranslationParams,
        body: PutTranslationBody,
        response: { 200: KbArticleTranslationSchema, 201: KbArticleTranslationSchema },
        detail: {
          summary: "Create (201) or replace (200) an article's translation into one language",
          description: `${LOCALE_RULE} \`title\` is required; \`body_html\` is stored sanitized like an article's, with \`body_text\` derived from it; \`status\` is \`draft\` (the default: not on the help center) or \`published\`. Saving records the article's current version: the translation is \`outdated\` in the list once the article changes again. Appends no event (kb_article.* carry the article, which a translation leaves unchanged).`,
        },
      },
    )
    .delete(
      "/:id/translations/:locale",
      async ({ ctx, params, set }) => {
        await deleteTranslation(ctx, params.id, params.locale, deps);
        set.status = 204;
        return null;
      },
      {
        access: write,
        params: TranslationParams,
        response: { 204: NoContent },
        detail: {
          summary: "Delete an article's translation into one language",
          description:
            "The help center's pages in that language show the article itself again. Deleting the article deletes its translations.",
        },
      },
    );
}
