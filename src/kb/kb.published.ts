import { first } from "../db/store";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db, Queryable } from "../db/database";
import { transact } from "../db/tx";
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
export async function publishedCollections(
  db: Queryable,
  workspaceId: string,
): Promise<Array<KbCollectionRow & { articleCount: number }>> {
  const counts = new Map(
    (
      await db
        .select({ collectionId: kbArticles.collectionId, n: sql<number>`count(*)` })
        .from(kbArticles)
        .where(published(workspaceId))
        .groupBy(kbArticles.collectionId)
    ).map((r) => [r.collectionId, r.n]),
  );
  return (
    await db
      .select()
      .from(kbCollections)
      .where(eq(kbCollections.workspaceId, workspaceId))
      .orderBy(asc(kbCollections.position), asc(kbCollections.name), asc(kbCollections.id))
  )
    .filter((c) => counts.has(c.id))
    .map((c) => ({ ...c, articleCount: counts.get(c.id) ?? 0 }));
}

/** A collection by slug, when it holds a published article (an empty one is not a public page). */
export async function publishedCollectionBySlug(
  db: Queryable,
  workspaceId: string,
  slug: string,
): Promise<KbCollectionRow | undefined> {
  const row = first(
    await db
      .select()
      .from(kbCollections)
      .where(and(eq(kbCollections.workspaceId, workspaceId), eq(kbCollections.slug, slug)))
      .limit(1),
  );
  if (!row) return undefined;
  const any = first(
    await db
      .select({ id: kbArticles.id })
      .from(kbArticles)
      .where(and(published(workspaceId), eq(kbArticles.collectionId, row.id)))
      .limit(1),
  );
  return any ? row : undefined;
}

export async function publishedCollectionById(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<KbCollectionRow | undefined> {
  return first(
    await db
      .select()
      .from(kbCollections)
      .where(and(eq(kbCollections.workspaceId, workspaceId), eq(kbCollections.id, id)))
      .limit(1),
  );
}

/** The published articles of a collection, by position. */
export async function publishedArticlesOf(
  db: Queryable,
  workspaceId: string,
  collectionId: string,
): Promise<PublishedArticleSummary[]> {
  return await db
    .select(summaryColumns)
    .from(kbArticles)
    .where(and(published(workspaceId), eq(kbArticles.collectionId, collectionId)))
    .orderBy(asc(kbArticles.position), asc(kbArticles.id));
}

/** The most read published articles: the home page's "popular articles". */
export async function featuredArticles(
  db: Queryable,
  workspaceId: string,
  limit: number,
): Promise<PublishedArticleSummary[]> {
  return await db
    .select(summaryColumns)
    .from(kbArticles)
    .where(published(workspaceId))
    .orderBy(desc(kbArticles.views), desc(kbArticles.publishedAt), asc(kbArticles.id))
    .limit(limit);
}

export async function publishedArticleBySlug(
  db: Queryable,
  workspaceId: string,
  slug: string,
): Promise<PublishedArticle | undefined> {
  return first(
    await db
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
      .limit(1),
  );
}

/** Every published article's slug and last change: the sitemap. */
export async function publishedArticleSlugs(
  db: Queryable,
  workspaceId: string,
): Promise<Array<{ slug: string; updatedAt: string }>> {
  return await db
    .select({ slug: kbArticles.slug, updatedAt: kbArticles.updatedAt })
    .from(kbArticles)
    .where(published(workspaceId))
    .orderBy(asc(kbArticles.slug));
}

/** Published articles matching `q`, best first (the help center's search). */
export async function searchPublishedArticles(
  db: Queryable,
  workspaceId: string,
  q: string,
  limit: number,
): Promise<PublishedArticleSummary[]> {
  return (await searchArticleRows(db, workspaceId, q, { publishedOnly: true, limit })).map((row) => ({
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
export async function searchPublishedArticleTexts(
  db: Queryable,
  workspaceId: string,
  q: string,
  limit: number,
): Promise<Array<{ id: string; title: string; slug: string; text: string }>> {
  return (await searchArticleRows(db, workspaceId, q, { publishedOnly: true, limit })).map((row) => ({
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
export async function countArticleView(db: Db, workspaceId: string, articleId: string): Promise<void> {
  await transact(db, async (tx) => {
    await tx
      .update(kbArticles)
      .set({ views: sql`${kbArticles.views} + 1` })
      .where(and(eq(kbArticles.workspaceId, workspaceId), eq(kbArticles.id, articleId)));
  });
}
