import { sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { rowsOf } from "../db/store";
import { queryTerms } from "../search/search.public";
import { kbSqlParts } from "./kb.statements";
import { kbArticles } from "./kb.table";

type ArticleRow = typeof kbArticles.$inferSelect;

/**
 * Hits read from the index, newest first, before ranking (FTS5 walks rowids lazily and stops):
 * bm25 is computed for these only, so a query matching every article of a big knowledge base
 * costs the same as one matching two hundred (PLATFORM.md: FTS guards). A query matching fewer
 * articles (the usual case) ranks all of them. At 10,000 articles all matching a query (the
 * broadest case, bench/help-center.ts), ranking all of them took ~70 ms, 500 of them ~12 ms.
 */
const MATCH_CAP = 200;

/**
 * Articles of the workspace whose title or body hold every word of `q` (the last one as a prefix),
 * best first: bm25 with the title weighted ten times the body (among the newest MATCH_CAP hits), then the newest. The workspace token
 * is part of the match, so a small workspace's articles are never crowded out by a big one's.
 */
export async function searchArticleRows(
  db: Queryable,
  workspaceId: string,
  q: string,
  options: { publishedOnly: boolean; limit: number },
): Promise<ArticleRow[]> {
  const terms = queryTerms(q);
  if (terms.length === 0) return [];
  const parts = kbSqlParts(db);
  const a = kbArticles;
  const published = options.publishedOnly ? sql` AND a.${sql.identifier(a.status.name)} = 'published'` : sql``;
  const ids = await rowsOf<{ id: string }>(
    db,
    sql`SELECT a.${sql.identifier(a.id.name)} AS id FROM (${parts.articleHitsSql(workspaceId, terms, MATCH_CAP)}) s
      JOIN ${a} a ON ${parts.articleKeySql(sql.raw("a"))} = s.rid AND a.${sql.identifier(a.workspaceId.name)} = ${workspaceId}${published}
      ORDER BY s.score, a.${sql.identifier(a.updatedAt.name)} DESC LIMIT ${options.limit}`,
  );
  if (ids.length === 0) return [];
  const byId = new Map(
    (
      await db
        .select()
        .from(a)
        .where(
          sql`${a.id} IN (${sql.join(
            ids.map((r) => sql`${r.id}`),
            sql`, `,
          )})`,
        )
    ).map((row) => [row.id, row]),
  );
  return ids.map((r) => byId.get(r.id)).filter((row): row is ArticleRow => row !== undefined);
}
