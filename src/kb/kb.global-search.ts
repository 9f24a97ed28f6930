import { hasScope, roleAtLeast, type RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { and, eq, inArray } from "drizzle-orm";
import { presentArticle } from "./kb.present";
import { kbArticles } from "./kb.table";
import { searchArticleRows } from "./kb.search";

/**
 * Articles for GET /v1/search: drafts included (kb:read reads them), best first. None for a
 * caller that may not read the knowledge base (an API key without kb:read).
 */
const mayReadKb = (ctx: RequestContext) =>
  ctx.scopes === null ? roleAtLeast(ctx.role, "viewer") : hasScope(ctx, "kb:read");

/** Articles by id, as the caller may read them (semantic search's article hits), in the order asked. */
export async function articlesByIds(db: Queryable, ctx: RequestContext, ids: string[]) {
  if (!mayReadKb(ctx) || ids.length === 0) return [];
  const rows = await db
    .select()
    .from(kbArticles)
    .where(and(eq(kbArticles.workspaceId, ctx.workspaceId), inArray(kbArticles.id, ids)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [presentArticle(row)] : [];
  });
}

export async function searchArticles(db: Queryable, ctx: RequestContext, q: string, limit: number) {
  if (!mayReadKb(ctx)) return [];
  return (await searchArticleRows(db, ctx.workspaceId, q, { publishedOnly: false, limit })).map(presentArticle);
}
