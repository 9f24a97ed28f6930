import { and, asc, eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Db, Queryable } from "../db/database";
import { withTx } from "../db/tx";
import { isShippedLocale, type Locale, workspaceLocales } from "../i18n/locales";
import type { Clock } from "../lib/clock";
import { invalidAt, notFound } from "../lib/errors";
import { htmlToText, sanitizeHtmlBody } from "../lib/sanitize";
import { workspaceSettingsOf } from "../workspaces/workspaces.public";
import { requireArticle } from "./kb.articles.service";
import { kbArticleTranslations } from "./kb.table";

/**
 * Article translations (DECISIONS.md "Languages"): the article is the workspace locale's version,
 * a translation its text in another of the help center's languages. No event is appended: the
 * event catalogue (SPEC.md) has kb_article.* carrying the article only, which a translation does
 * not change, and no translation event is pinned.
 */

type Deps = { db: Db; clock: Clock };
type Status = "draft" | "published";
export type TranslationRow = typeof kbArticleTranslations.$inferSelect;
export type TranslationInput = { title: string; body_html?: string; status?: Status };

export const presentTranslation = (row: TranslationRow) => ({
  locale: row.locale,
  title: row.title,
  body_html: row.bodyHtml,
  body_text: row.bodyText,
  status: row.status,
  updated_at: row.updatedAt,
});

/** The workspace's own language (its articles') and its help center's languages. */
export function workspaceLanguages(db: Queryable, workspaceId: string): { locale: Locale; locales: Locale[] } {
  const { locale, locales } = workspaceLocales(workspaceSettingsOf(db, workspaceId)?.settings);
  return { locale, locales };
}

/**
 * The locale a translation path names. Writing needs one of the help center's languages other than
 * the article's own; reading and deleting take any other shipped language, so a translation left
 * behind by a language the help center dropped can still be read and removed.
 */
function translationLocale(db: Queryable, workspaceId: string, raw: string, writing: boolean): Locale {
  const { locale, locales } = workspaceLanguages(db, workspaceId);
  const allowed = writing ? locales : undefined;
  if (!isShippedLocale(raw) || raw === locale || (allowed && !allowed.includes(raw))) {
    const among = (allowed ?? []).filter((l) => l !== locale);
    throw invalidAt(
      "params.locale",
      writing
        ? `A translation's locale is one of the help center's other languages: ${among.join(", ") || "none (add languages in the workspace settings)"}.`
        : `A translation's locale is a shipped language other than the article's own (${locale}).`,
    );
  }
  return raw;
}

const byArticle = (workspaceId: string, articleId: string) =>
  and(eq(kbArticleTranslations.workspaceId, workspaceId), eq(kbArticleTranslations.articleId, articleId));

const one = (workspaceId: string, articleId: string, locale: string) =>
  and(byArticle(workspaceId, articleId), eq(kbArticleTranslations.locale, locale));

/** Every translation of an article, by locale, each with whether the article changed since it was saved. */
export function listTranslations(db: Queryable, ctx: RequestContext, articleId: string) {
  const article = requireArticle(db, ctx.workspaceId, articleId);
  return db
    .select()
    .from(kbArticleTranslations)
    .where(byArticle(ctx.workspaceId, articleId))
    .orderBy(asc(kbArticleTranslations.locale))
    .all()
    .map((row) => ({ ...presentTranslation(row), outdated: row.sourceUpdatedAt < article.updatedAt }));
}

export function getTranslation(db: Queryable, ctx: RequestContext, articleId: string, raw: string): TranslationRow {
  requireArticle(db, ctx.workspaceId, articleId);
  const locale = translationLocale(db, ctx.workspaceId, raw, false);
  const row = db
    .select()
    .from(kbArticleTranslations)
    .where(one(ctx.workspaceId, articleId, locale))
    .get();
  if (!row) throw notFound("Translation");
  return row;
}

/** Creates or replaces the article's translation into `raw`; `created` tells the 201 from the 200. */
export function putTranslation(
  ctx: RequestContext,
  articleId: string,
  raw: string,
  input: TranslationInput,
  deps: Deps,
): { row: TranslationRow; created: boolean } {
  const bodyHtml = sanitizeHtmlBody(input.body_html ?? "");
  const bodyText = htmlToText(bodyHtml);
  return withTx(deps.db, (tx) => {
    const article = requireArticle(tx, ctx.workspaceId, articleId);
    const locale = translationLocale(tx, ctx.workspaceId, raw, true);
    const now = deps.clock.now().toISOString();
    const existing = tx
      .select()
      .from(kbArticleTranslations)
      .where(one(ctx.workspaceId, articleId, locale))
      .get();
    const fields = {
      title: input.title,
      bodyHtml,
      bodyText,
      status: input.status ?? "draft",
      sourceUpdatedAt: article.updatedAt,
      updatedAt: now,
    };
    const row = existing
      ? tx
          .update(kbArticleTranslations)
          .set(fields)
          .where(one(ctx.workspaceId, articleId, locale))
          .returning()
          .get()
      : tx
          .insert(kbArticleTranslations)
          .values({ workspaceId: ctx.workspaceId, articleId, locale, createdAt: now, ...fields })
          .returning()
          .get();
    return { row, created: !existing };
  });
}

export function deleteTranslation(ctx: RequestContext, articleId: string, raw: string, deps: Deps): void {
  withTx(deps.db, (tx) => {
    getTranslation(tx, ctx, articleId, raw);
    tx.delete(kbArticleTranslations)
      .where(one(ctx.workspaceId, articleId, raw))
      .run();
  });
}
