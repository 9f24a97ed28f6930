import { hasScope, roleAtLeast, type RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { presentArticle } from "./kb.present";
import { searchArticleRows } from "./kb.search";

/**
 * Articles for GET /v1/search: drafts included (kb:read reads them), best first. None for a
 * caller that may not read the knowledge base (an API key without kb:read).
 */
export function searchArticles(db: Queryable, ctx: RequestContext, q: string, limit: number) {
  const mayRead = ctx.scopes === null ? roleAtLeast(ctx.role, "viewer") : hasScope(ctx, "kb:read");
  if (!mayRead) return [];
  return searchArticleRows(db, ctx.workspaceId, q, { publishedOnly: false, limit }).map(presentArticle);
}
