import { and, eq, inArray, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import type { Locale } from "../i18n/locales";
import { queryTerms } from "../search/search.public";
import {
  type PublishedArticle,
  type PublishedArticleSummary,
  publishedArticleBySlug,
  publishedArticleSlugs,
  searchPublishedArticles,
} from "./kb.published";
import { kbSqlParts } from "./kb.statements";
import { kbArticles, kbArticleTranslations } from "./kb.table";
import { workspaceLanguages } from "./kb.translations";

/**
 * The help center's reads in one of its languages: an article's published translation into that
 * language when it has one, else the article itself. `lang` says which language the text is in,
 * so a page in German can mark an English article honestly.
 */

export type InLanguage<T> = T & { lang: Locale };

const EXCERPT = 200;
/** Translations a help-center search reads at most before ranking (a LIKE scan; the article index is FTS). */
const TRANSLATION_SCAN = 500;

type Translated = { articleId: string; title: string; bodyHtml: string; bodyText: string; updatedAt: string };

async function publishedTranslations(db: Queryable, workspaceId: string, locale: Locale, articleIds: string[]) {
  if (articleIds.length === 0) return new Map<string, Translated>();
  const t = kbArticleTranslations;
  const rows = await db
    .select({
      articleId: t.articleId,
      title: t.title,
      bodyHtml: t.bodyHtml,
      bodyText: t.bodyText,
      updatedAt: t.updatedAt,
    })
    .from(t)
    .where(
      and(
        eq(t.workspaceId, workspaceId),
        eq(t.locale, locale),
        eq(t.status, "published"),
        inArray(t.articleId, articleIds),
      ),
    );
  return new Map(rows.map((row) => [row.articleId, row]));
}

/** Article summaries (a list, the popular ones, search hits) in `locale` where translated, else in the article's own language. */
export async function summariesIn(
  db: Queryable,
  workspaceId: string,
  locale: Locale,
  rows: PublishedArticleSummary[],
): Promise<Array<InLanguage<PublishedArticleSummary>>> {
  const source = (await workspaceLanguages(db, workspaceId)).locale;
  if (locale === source) return rows.map((row) => ({ ...row, lang: source }));
  const translated = await publishedTranslations(
    db,
    workspaceId,
    locale,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const found = translated.get(row.id);
    return found
      ? { ...row, title: found.title, excerpt: found.bodyText.slice(0, EXCERPT), lang: locale }
      : { ...row, lang: source };
  });
}

/** A published article by slug, in `locale` when it has a published translation into it. */
export async function publishedArticleIn(
  db: Queryable,
  workspaceId: string,
  slug: string,
  locale: Locale,
): Promise<InLanguage<PublishedArticle> | undefined> {
  const article = await publishedArticleBySlug(db, workspaceId, slug);
  if (!article) return undefined;
  const source = (await workspaceLanguages(db, workspaceId)).locale;
  const found =
    locale === source
      ? undefined
      : (await publishedTranslations(db, workspaceId, locale, [article.id])).get(article.id);
  if (!found) return { ...article, lang: source };
  // The page changed when either text did.
  const updatedAt = [found.updatedAt, article.updatedAt].sort()[1] ?? article.updatedAt;
  return {
    ...article,
    title: found.title,
    bodyHtml: found.bodyHtml,
    bodyText: found.bodyText,
    updatedAt,
    lang: locale,
  };
}

/** The languages an article is published in: its own and those of its published translations. */
export async function publishedLanguagesOf(db: Queryable, workspaceId: string, articleId: string): Promise<Locale[]> {
  const source = (await workspaceLanguages(db, workspaceId)).locale;
  const t = kbArticleTranslations;
  const rows = await db
    .select({ locale: t.locale })
    .from(t)
    .where(and(eq(t.workspaceId, workspaceId), eq(t.articleId, articleId), eq(t.status, "published")));
  return [source, ...rows.map((r) => r.locale as Locale)];
}

/** Every published article's slug, last change and languages (its own and its published translations'): the sitemap. */
export async function publishedArticleLanguages(
  db: Queryable,
  workspaceId: string,
): Promise<Array<{ slug: string; updatedAt: string; languages: Locale[] }>> {
  const source = (await workspaceLanguages(db, workspaceId)).locale;
  const t = kbArticleTranslations;
  const bySlug = new Map<string, Locale[]>();
  for (const row of await db
    .select({ slug: kbArticles.slug, locale: t.locale })
    .from(t)
    .innerJoin(kbArticles, and(eq(kbArticles.workspaceId, t.workspaceId), eq(kbArticles.id, t.articleId)))
    .where(and(eq(t.workspaceId, workspaceId), eq(t.status, "published"), eq(kbArticles.status, "published"))))
    bySlug.set(row.slug, [...(bySlug.get(row.slug) ?? []), row.locale as Locale]);
  return (await publishedArticleSlugs(db, workspaceId)).map((a) => ({
    ...a,
    languages: [source, ...(bySlug.get(a.slug) ?? [])],
  }));
}

/**
 * The help center's search in `locale`: published translations into it holding every word of `q`
 * (title matches first), then the articles the index finds in their own language, each shown
 * translated where it can be; at most `limit`, each article once.
 */
export async function searchPublishedArticlesIn(
  db: Queryable,
  workspaceId: string,
  q: string,
  limit: number,
  locale: Locale,
): Promise<Array<InLanguage<PublishedArticleSummary>>> {
  const own = await searchPublishedArticles(db, workspaceId, q, limit);
  const source = (await workspaceLanguages(db, workspaceId)).locale;
  if (locale === source) return await summariesIn(db, workspaceId, locale, own);
  const terms = queryTerms(q).map((term) => term.toLowerCase());
  const hits: PublishedArticleSummary[] = [];
  if (terms.length > 0) {
    const t = kbArticleTranslations;
    const a = kbArticles;
    // A substring of lower-cased text: the words are data, never a LIKE pattern.
    const { containsSql } = kbSqlParts(db);
    const matchAll = terms.map((term) => containsSql(sql`lower(${t.title} || ' ' || ${t.bodyText})`, term));
    const rows = await db
      .select({
        id: a.id,
        collectionId: a.collectionId,
        slug: a.slug,
        publishedAt: a.publishedAt,
        updatedAt: a.updatedAt,
        title: t.title,
        excerpt: sql<string>`substr(${t.bodyText}, 1, ${EXCERPT})`,
        inTitle: sql<number>`${containsSql(sql`lower(${t.title})`, terms[0]!)}`,
      })
      .from(t)
      .innerJoin(a, and(eq(a.workspaceId, t.workspaceId), eq(a.id, t.articleId)))
      .where(
        and(
          eq(t.workspaceId, workspaceId),
          eq(t.locale, locale),
          eq(t.status, "published"),
          eq(a.status, "published"),
          ...matchAll,
        ),
      )
      .limit(TRANSLATION_SCAN);
    rows.sort((x, y) => y.inTitle - x.inTitle || y.updatedAt.localeCompare(x.updatedAt));
    hits.push(...rows.map(({ inTitle: _, ...row }) => row));
  }
  const seen = new Set(hits.map((h) => h.id));
  const rest = await summariesIn(
    db,
    workspaceId,
    locale,
    own.filter((row) => !seen.has(row.id)),
  );
  return [...hits.map((h) => ({ ...h, lang: locale })), ...rest].slice(0, limit);
}
