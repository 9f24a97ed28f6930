import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db, Queryable } from "../db/database";
import { withTx } from "../db/tx";
import type { KbArticleRow, KbCollectionRow } from "./kb.present";
import { searchArticleRows } from "./kb.search";
import { kbArticles, kbCollections } from "./kb.table";

/**
 * What the public help center reads: published articles only (drafts never leave this file), and
 * the collections holding at least one of them. Every query takes the workspace id.
 */

const published = (workspaceId: string) =>
  and(eq(kbArticles.workspaceId, workspaceId), eq(kbArticles.status, "published"));

/** A published article's fields as the help center shows them (no view count, no author). */
export type PublishedArticle = Pick<
  KbArticleRow,
  "id" | "collectionId" | "title" | "slug" | "bodyHtml" | "bodyText" | "publishedAt" | "updatedAt"
>;
/** A published article in a list: its text only as an excerpt. */
export type PublishedArticleSummary = Pick<
  KbArticleRow,
  "id" | "collectionId" | "title" | "slug" | "publishedAt" | "updatedAt"
> & {
  excerpt: string;
};

const EXCERPT = 200;
const summaryColumns = {
  id: kbArticles.id,
  collectionId: kbArticles.collectionId,
  title: kbArticles.title,
  slug: kbArticles.slug,
  publishedAt: kbArticles.publishedAt,
  updatedAt: kbArticles.updatedAt,
  excerpt: sql<string>`substr(${kbArticles.bodyText}, 1, ${EXCERPT})`,
};

/** Collections with their count of published articles, by position; empty ones are left out. */
export function publishedCollections(
  db: Queryable,
  workspaceId: string,
): Array<KbCollectionRow & { articleCount: number }> {
  const counts = new Map(
    db
      .select({ collectionId: kbArticles.collectionId, n: sql<number>`count(*)` })
      .from(kbArticles)
      .where(published(workspaceId))
      .groupBy(kbArticles.collectionId)
      .all()
      .map((r) => [r.collectionId, r.n]),
  );
  return db
    .select()
    .from(kbCollections)
    .where(eq(kbCollections.workspaceId, workspaceId))
    .orderBy(asc(kbCollections.position), asc(kbCollections.name), asc(kbCollections.id))
    .all()
    .filter((c) => counts.has(c.id))
    .map((c) => ({ ...c, articleCount: counts.get(c.id) ?? 0 }));
}

/** A collection by slug, when it holds a published article (an empty one is not a public page). */
export function publishedCollectionBySlug(
  db: Queryable,
  workspaceId: string,
  slug: string,
): KbCollectionRow | undefined {
  const row = db
    .select()
    .from(kbCollections)
    .where(and(eq(kbCollections.workspaceId, workspaceId), eq(kbCollections.slug, slug)))
    .get();
  if (!row) return undefined;
  const any = db
    .select({ id: kbArticles.id })
    .from(kbArticles)
    .where(and(published(workspaceId), eq(kbArticles.collectionId, row.id)))
    .limit(1)
    .get();
  return any ? row : undefined;
}

export function publishedCollectionById(db: Queryable, workspaceId: string, id: string): KbCollectionRow | undefined {
  return db
    .select()
    .from(kbCollections)
    .where(and(eq(kbCollections.workspaceId, workspaceId), eq(kbCollections.id, id)))
    .get();
}

/** The published articles of a collection, by position. */
export function publishedArticlesOf(
  db: Queryable,
  workspaceId: string,
  collectionId: string,
): PublishedArticleSummary[] {
  return db
    .select(summaryColumns)
    .from(kbArticles)
    .where(and(published(workspaceId), eq(kbArticles.collectionId, collectionId)))
    .orderBy(asc(kbArticles.position), asc(kbArticles.id))
    .all();
}

/** The most read published articles: the home page's "popular articles". */
export function featuredArticles(db: Queryable, workspaceId: string, limit: number): PublishedArticleSummary[] {
  return db
    .select(summaryColumns)
    .from(kbArticles)
    .where(published(workspaceId))
    .orderBy(desc(kbArticles.views), desc(kbArticles.publishedAt), asc(kbArticles.id))
    .limit(limit)
    .all();
}

export function publishedArticleBySlug(db: Queryable, workspaceId: string, slug: string): PublishedArticle | undefined {
  return db
    .select({
      id: kbArticles.id,
      collectionId: kbArticles.collectionId,
      title: kbArticles.title,
      slug: kbArticles.slug,
      bodyHtml: kbArticles.bodyHtml,
      bodyText: kbArticles.bodyText,
      publishedAt: kbArticles.publishedAt,
      updatedAt: kbArticles.updatedAt,
    })
    .from(kbArticles)
    .where(and(published(workspaceId), eq(kbArticles.slug, slug)))
    .get();
}

/** Every published article's slug and last change: the sitemap. */
export function publishedArticleSlugs(db: Queryable, workspaceId: string): Array<{ slug: string; updatedAt: string }> {
  return db
    .select({ slug: kbArticles.slug, updatedAt: kbArticles.updatedAt })
    .from(kbArticles)
    .where(published(workspaceId))
    .orderBy(asc(kbArticles.slug))
    .all();
}

/** Published articles matching `q`, best first (the help center's search). */
export function searchPublishedArticles(
  db: Queryable,
  workspaceId: string,
  q: string,
  limit: number,
): PublishedArticleSummary[] {
  return searchArticleRows(db, workspaceId, q, { publishedOnly: true, limit }).map((row) => ({
    id: row.id,
    collectionId: row.collectionId,
    title: row.title,
    slug: row.slug,
    publishedAt: row.publishedAt,
    updatedAt: row.updatedAt,
    excerpt: row.bodyText.slice(0, EXCERPT),
  }));
}

/** Published articles matching `q`, best first, with their whole text (what AI answers ground on). */
export function searchPublishedArticleTexts(
  db: Queryable,
  workspaceId: string,
  q: string,
  limit: number,
): Array<{ id: string; title: string; slug: string; text: string }> {
  return searchArticleRows(db, workspaceId, q, { publishedOnly: true, limit }).map((row) => ({
    id: row.id,
    title: row.title,
    slug: row.slug,
    text: row.bodyText,
  }));
}

/**
 * Counts one read of an article. It changes neither `updated_at` nor emits an event (a view is not
 * an edit; webhooks would otherwise fire on every read). The GET answering it does not wait for it
 * to be durable (a view is a hint, like an API key's last use).
 */
export function countArticleView(db: Db, workspaceId: string, articleId: string): void {
  withTx(db, (tx) => {
    tx.update(kbArticles)
      .set({ views: sql`${kbArticles.views} + 1` })
      .where(and(eq(kbArticles.workspaceId, workspaceId), eq(kbArticles.id, articleId)))
      .run();
  });
}
