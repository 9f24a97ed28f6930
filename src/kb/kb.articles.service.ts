import { first, one, rowsOf } from "../db/store";
import { and, asc, eq, gt, or, sql, type SQL } from "drizzle-orm";
import { actorUserId, type RequestContext } from "../auth/context";
import type { Db, Queryable, Tx } from "../db/database";
import { decodeCursor, type Page, pageOf } from "../db/cursor";
import { transact } from "../db/tx";
import { appendEvent } from "../events/append";
import type { Clock } from "../lib/clock";
import { conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { htmlToText, sanitizeHtmlBody } from "../lib/sanitize";
import { requireCollection } from "./kb.collections.service";
import { kbArticleCreated, kbArticleDeleted, kbArticleUpdated } from "./kb.events";
import { type KbArticleRow, presentArticle } from "./kb.present";
import { searchArticleRows } from "./kb.search";
import { freeSlug, slugFrom, slugTaken } from "./kb.slugs";
import { kbArticles, kbArticleTranslations } from "./kb.table";

type Deps = { db: Db; clock: Clock };
type Status = KbArticleRow["status"];
export type ArticleInput = {
  collection_id?: string;
  title?: string;
  slug?: string;
  body_html?: string;
  status?: Status;
  position?: number;
};
export type ArticleListFilters = {
  limit: number;
  cursor?: string;
  collection_id?: string;
  status?: Status;
  q?: string;
};

export async function findArticle(db: Queryable, workspaceId: string, id: string): Promise<KbArticleRow | undefined> {
  return first(
    await db
      .select()
      .from(kbArticles)
      .where(and(eq(kbArticles.workspaceId, workspaceId), eq(kbArticles.id, id)))
      .limit(1),
  );
}

export async function requireArticle(db: Queryable, workspaceId: string, id: string): Promise<KbArticleRow> {
  const row = await findArticle(db, workspaceId, id);
  if (!row) throw notFound("Article");
  return row;
}

/**
 * A page of the workspace's articles, drafts included, by position (then id). With `q` the
 * matching articles come ranked by relevance instead, up to `limit`, on one page.
 */
export async function listArticles(
  db: Queryable,
  ctx: RequestContext,
  filters: ArticleListFilters,
): Promise<Page<ReturnType<typeof presentArticle>>> {
  const a = kbArticles;
  const where: SQL[] = [eq(a.workspaceId, ctx.workspaceId)];
  if (filters.collection_id) where.push(eq(a.collectionId, filters.collection_id));
  if (filters.status) where.push(eq(a.status, filters.status));
  if (filters.q) {
    const rows = (
      await searchArticleRows(db, ctx.workspaceId, filters.q, { publishedOnly: false, limit: 1000 })
    ).filter(
      (row) =>
        (!filters.collection_id || row.collectionId === filters.collection_id) &&
        (!filters.status || row.status === filters.status),
    );
    return { data: rows.slice(0, filters.limit).map(presentArticle), next_cursor: null };
  }
  const after = decodeCursor(filters.cursor, 2);
  if (after) {
    const [position, id] = after as [number, string];
    const next = or(gt(a.position, position), and(eq(a.position, position), gt(a.id, id)));
    if (next) where.push(next);
  }
  const rows = await db
    .select()
    .from(a)
    .where(and(...where))
    .orderBy(asc(a.position), asc(a.id))
    .limit(filters.limit + 1);
  return await pageOf(rows, filters.limit, presentArticle, (row) => [row.position, row.id]);
}

async function nextPosition(tx: Tx, workspaceId: string, collectionId: string): Promise<number> {
  const [row] = await rowsOf<{ n: number | null }>(
    tx,
    sql`SELECT max(${kbArticles.position}) AS n FROM ${kbArticles} WHERE ${kbArticles.workspaceId} = ${workspaceId} AND ${kbArticles.collectionId} = ${collectionId}`,
  );
  return row?.n === null || row?.n === undefined ? 0 : row.n + 1;
}

async function assertSlugFree(tx: Tx, workspaceId: string, slug: string, exceptId: string | null) {
  if (await slugTaken(tx, kbArticles, workspaceId, slug, exceptId))
    throw conflict("Another article of this workspace has this slug.");
}

/** The stored body: sanitized HTML (src/lib/sanitize.ts, the allowlist of every rich text) and its text. */
function cleanBody(html: string): { bodyHtml: string; bodyText: string } {
  const bodyHtml = sanitizeHtmlBody(html);
  return { bodyHtml, bodyText: htmlToText(bodyHtml) };
}

/** `published_at` after a status change: set when an article is published, kept while it stays so, cleared on unpublishing. */
function publishedAtAfter(current: KbArticleRow | null, status: Status, now: string): string | null {
  if (status === "draft") return null;
  return current?.status === "published" ? current.publishedAt : now;
}

export async function createArticle(
  ctx: RequestContext,
  input: ArticleInput & { collection_id: string; title: string },
  deps: Deps,
): Promise<KbArticleRow> {
  const body = cleanBody(input.body_html ?? "");
  return await transact(deps.db, async (tx) => {
    await requireCollection(tx, ctx.workspaceId, input.collection_id);
    let slug: string;
    if (input.slug) {
      await assertSlugFree(tx, ctx.workspaceId, input.slug, null);
      slug = input.slug;
    } else slug = await freeSlug(tx, kbArticles, ctx.workspaceId, slugFrom(input.title, "article"));
    const now = deps.clock.now().toISOString();
    const status = input.status ?? "draft";
    const row = one(
      await tx
        .insert(kbArticles)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          collectionId: input.collection_id,
          title: input.title,
          slug,
          ...body,
          status,
          views: 0,
          position: input.position ?? (await nextPosition(tx, ctx.workspaceId, input.collection_id)),
          publishedAt: publishedAtAfter(null, status, now),
          createdBy: actorUserId(ctx),
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await appendEvent(tx, kbArticleCreated, {
      workspaceId: ctx.workspaceId,
      data: { kb_article: presentArticle(row) },
    });
    return row;
  });
}

export async function updateArticle(
  ctx: RequestContext,
  id: string,
  input: ArticleInput,
  deps: Deps,
): Promise<KbArticleRow> {
  const body = input.body_html !== undefined ? cleanBody(input.body_html) : null;
  return await transact(deps.db, async (tx) => {
    const current = await requireArticle(tx, ctx.workspaceId, id);
    const now = deps.clock.now().toISOString();
    const patch: Partial<KbArticleRow> = {};
    if (input.collection_id !== undefined && input.collection_id !== current.collectionId) {
      await requireCollection(tx, ctx.workspaceId, input.collection_id);
      patch.collectionId = input.collection_id;
      // Moved without a position: it goes last in its new collection.
      if (input.position === undefined) patch.position = await nextPosition(tx, ctx.workspaceId, input.collection_id);
    }
    if (input.title !== undefined) patch.title = input.title;
    if (input.slug !== undefined) {
      await assertSlugFree(tx, ctx.workspaceId, input.slug, id);
      patch.slug = input.slug;
    }
    if (body) Object.assign(patch, body);
    if (input.position !== undefined) patch.position = input.position;
    if (input.status !== undefined) {
      patch.status = input.status;
      patch.publishedAt = publishedAtAfter(current, input.status, now);
    }
    const row = one(
      await tx
        .update(kbArticles)
        .set({ ...patch, updatedAt: now })
        .where(and(eq(kbArticles.workspaceId, ctx.workspaceId), eq(kbArticles.id, id)))
        .returning(),
    );
    await appendEvent(tx, kbArticleUpdated, {
      workspaceId: ctx.workspaceId,
      data: { kb_article: presentArticle(row) },
    });
    return row;
  });
}

export async function deleteArticle(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    await requireArticle(tx, ctx.workspaceId, id);
    await tx.delete(kbArticles).where(and(eq(kbArticles.workspaceId, ctx.workspaceId), eq(kbArticles.id, id)));
    // Its translations go with it.
    await tx
      .delete(kbArticleTranslations)
      .where(and(eq(kbArticleTranslations.workspaceId, ctx.workspaceId), eq(kbArticleTranslations.articleId, id)));
    await appendEvent(tx, kbArticleDeleted, { workspaceId: ctx.workspaceId, data: { kb_article_id: id } });
  });
}
