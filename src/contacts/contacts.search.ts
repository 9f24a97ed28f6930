import { and, inArray, isNull, sql } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { sqlParts } from "../db/dialect";
import { rowsOf } from "../db/store";
import {
  bm25Sql,
  COMMON_TERM_DOCS,
  ftsHitKeySql,
  ftsIndexes,
  ftsScoredHitsSql,
  planSearch,
  RANK_CAP,
} from "../search/search.public";
import { presentContacts, type ContactJson } from "./contacts.present";
import type { ContactTicketCounts } from "./contacts.ticket-counts";
import { contacts } from "./contacts.table";
import { likePrefix } from "./contacts.text";

/** Contacts by relevance (bm25 over name and email when every term is rare), then recency: GET /v1/search. */
export async function searchContacts(
  db: Queryable,
  ctx: RequestContext,
  q: string,
  limit: number,
  countTickets: ContactTicketCounts,
): Promise<ContactJson[]> {
  const plan = await planSearch(db, q);
  if (!plan) return [];
  const ids = await rankedContactIds(db, ctx, plan, limit);
  // Later addresses are outside the word index: an address (or its start) finds its contact after the ranked ones.
  const term = q.trim().toLowerCase();
  if (ids.length < limit && term.length >= 3 && !/\s/.test(term))
    for (const row of await rowsOf<{ id: string }>(
      db,
      sql`
      SELECT ce.contact_id AS id FROM contact_emails ce
      WHERE ce.workspace_id = ${ctx.workspaceId} AND ${sqlParts(db).likeInsensitive(sql.raw("ce.email"), likePrefix(term))}
      LIMIT ${limit}`,
    ))
      if (!ids.includes(row.id) && ids.length < limit) ids.push(row.id);
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(contacts)
    .where(and(inArray(contacts.id, ids), isNull(contacts.deletedAt)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return await presentContacts(
    db,
    countTickets,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}

/** Contacts by relevance (bm25 over name and email when every term is rare), then recency. */
async function rankedContactIds(
  db: Queryable,
  ctx: RequestContext,
  plan: NonNullable<Awaited<ReturnType<typeof planSearch>>>,
  limit: number,
): Promise<string[]> {
  const precise = plan.precise;
  const person = plan.expression(["name", "email"]);
  const score = precise ? bm25Sql(db, ftsIndexes.contacts, "0.0, 2.0, 1.0") : sql.raw("0");
  const hits = ftsScoredHitsSql(db, ftsIndexes.contacts, person, precise ? COMMON_TERM_DOCS : RANK_CAP, score);
  const ranked = await rowsOf<{ id: string }>(
    db,
    sql`
    SELECT c.id AS id FROM (${hits}) s
    JOIN contacts c ON ${ftsHitKeySql(db, sql.raw("c"))} = s.rid
    WHERE c.workspace_id = ${ctx.workspaceId} AND c.deleted_at IS NULL
    ORDER BY s.score ASC, c.updated_at DESC, c.id DESC
    LIMIT ${limit}`,
  );
  return ranked.map((r) => r.id);
}
