import { first, one } from "../db/store";
import { and, asc, eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Db, Queryable } from "../db/database";
import { transact } from "../db/tx";
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
export async function workspaceLanguages(
  db: Queryable,
  workspaceId: string,
): Promise<{ locale: Locale; locales: Locale[] }> {
  const { locale, locales } = workspaceLocales((await workspaceSettingsOf(db, workspaceId))?.settings);
  return { locale, locales };
}

/**
 * The locale a translation path names. Writing needs one of the help center's languages other than
 * the article's own; reading and deleting take any other shipped language, so a translation left
 * behind by a language the help center dropped can still be read and removed.
 */
async function translationLocale(db: Queryable, workspaceId: string, raw: string, writing: boolean): Promise<Locale> {
  const { locale, locales } = await workspaceLanguages(db, workspaceId);
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

const inLocale = (workspaceId: string, articleId: string, locale: string) =>
  and(byArticle(workspaceId, articleId), eq(kbArticleTranslations.locale, locale));

/** Every translation of an article, by locale, each with whether the article changed since it was saved. */
export async function listTranslations(db: Queryable, ctx: RequestContext, articleId: string) {
  const article = await requireArticle(db, ctx.workspaceId, articleId);
  return (
    await db
      .select()
      .from(kbArticleTranslations)
      .where(byArticle(ctx.workspaceId, articleId))
      .orderBy(asc(kbArticleTranslations.locale))
  ).map((row) => ({ ...presentTranslation(row), outdated: row.sourceUpdatedAt < article.updatedAt }));
}

export async function getTranslation(
  db: Queryable,
  ctx: RequestContext,
  articleId: string,
  raw: string,
): Promise<TranslationRow> {
  await requireArticle(db, ctx.workspaceId, articleId);
  const locale = await translationLocale(db, ctx.workspaceId, raw, false);
  const row = first(
    await db
      .select()
      .from(kbArticleTranslations)
      .where(inLocale(ctx.workspaceId, articleId, locale))
      .limit(1),
  );
  if (!row) throw notFound("Translation");
  return row;
}

/** Creates or replaces the article's translation into `raw`; `created` tells the 201 from the 200. */
export async function putTranslation(
  ctx: RequestContext,
  articleId: string,
  raw: string,
  input: TranslationInput,
  deps: Deps,
): Promise<{ row: TranslationRow; created: boolean }> {
  const bodyHtml = sanitizeHtmlBody(input.body_html ?? "");
  const bodyText = htmlToText(bodyHtml);
  return await transact(deps.db, async (tx) => {
    const article = await requireArticle(tx, ctx.workspaceId, articleId);
    const locale = await translationLocale(tx, ctx.workspaceId, raw, true);
    const now = deps.clock.now().toISOString();
    const existing = first(
      await tx
        .select()
        .from(kbArticleTranslations)
        .where(inLocale(ctx.workspaceId, articleId, locale))
        .limit(1),
    );
    const fields = {
      title: input.title,
      bodyHtml,
      bodyText,
      status: input.status ?? "draft",
      sourceUpdatedAt: article.updatedAt,
      updatedAt: now,
    };
    const row = existing
      ? one(
          await tx
            .update(kbArticleTranslations)
            .set(fields)
            .where(inLocale(ctx.workspaceId, articleId, locale))
            .returning(),
        )
      : one(
          await tx
            .insert(kbArticleTranslations)
            .values({ workspaceId: ctx.workspaceId, articleId, locale, createdAt: now, ...fields })
            .returning(),
        );
    return { row, created: !existing };
  });
}

export async function deleteTranslation(
  ctx: RequestContext,
  articleId: string,
  raw: string,
  deps: Deps,
): Promise<void> {
  await transact(deps.db, async (tx) => {
    await getTranslation(tx, ctx, articleId, raw);
    await tx.delete(kbArticleTranslations).where(inLocale(ctx.workspaceId, articleId, raw));
  });
}
