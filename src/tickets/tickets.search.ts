import { and, asc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { rowsOf } from "../db/store";
import { fieldValueScoredHitsSql } from "../custom-fields/custom-fields.public";
import {
  bm25Sql,
  ftsHitKeySql,
  COMMON_TERM_DOCS,
  ftsIndexes,
  ftsScoredHitsSql,
  planSearch,
  RANK_CAP,
  ticketNumberOf,
  type FtsIndex,
  type SearchPlan,
} from "../search/search.public";
import { contactTicketsSql } from "./tickets.search-sql";
import { presentTickets, type TicketJson } from "./tickets.present";
import { messages } from "./messages.table";
import { ticketScope } from "./tickets.list";
import { liveTicket } from "./tickets.repo";
import { tickets } from "./tickets.table";

export const SEARCH_RESULTS = 5;

/**
 * Tickets by relevance, then recency. Rare terms: bm25 over every hit (subject and contact hits
 * weigh double). A common term: bm25 would read its whole doclist (PLATFORM.md: ~0.5 s on 1M
 * documents), so only the newest RANK_CAP hits of each index are read (FTS5 walks rowids newest
 * first and stops early) and ranked by where they matched (subject or contact name and email, then
 * custom field, then message), then recency. A query that is a ticket number (`4`, `#4`) puts that
 * ticket first; `#4` looks for nothing else.
 */
export async function searchTickets(
  db: Queryable,
  ctx: RequestContext,
  q: string,
  limit = SEARCH_RESULTS,
  commonTermDocs = COMMON_TERM_DOCS,
): Promise<TicketJson[]> {
  const quoted = ticketNumberOf(q);
  const byNumber = quoted
    ? sql`SELECT t.id, -1e9 FROM tickets t WHERE t.workspace_id = ${ctx.workspaceId} AND t.number = ${quoted.number}`
    : null;
  const plan = quoted?.only ? null : await planSearch(db, q, commonTermDocs);
  if (!plan && !byNumber) return [];
  const ranked = await rankedTicketIds(db, ctx, plan, limit, byNumber);
  if (ranked.length === 0) return [];
  const rows = await db
    .select()
    .from(tickets)
    .where(
      inArray(
        tickets.id,
        ranked.map((r) => r.id),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return await presentTickets(db, ranked.map((r) => byId.get(r.id)!).filter(Boolean));
}

async function rankedTicketIds(
  db: Queryable,
  ctx: RequestContext,
  plan: SearchPlan | null,
  limit: number,
  byNumber: SQL | null,
): Promise<{ id: string }[]> {
  const parts: SQL[] = byNumber ? [byNumber] : [];
  if (plan) parts.push(wordHitsSql(db, ctx, plan, limit));
  return await rowsOf<{ id: string }>(
    db,
    sql`
    WITH hits(ticket_id, score) AS (${sql.join(parts, sql` UNION ALL `)})
    SELECT tickets.id AS id FROM hits JOIN tickets ON tickets.id = hits.ticket_id
    WHERE ${and(...(await ticketScope(db, ctx)), eq(tickets.spam, false))}
    GROUP BY tickets.id
    ORDER BY min(hits.score) ASC, tickets.last_message_at DESC, tickets.id DESC
    LIMIT ${limit}`,
  );
}

/** (ticket id, score) of every word hit: subject, message, custom field, contact. */
function wordHitsSql(db: Queryable, ctx: RequestContext, plan: SearchPlan, limit: number): SQL {
  const precise = plan.precise;
  const subject = plan.expression(["subject"]);
  const body = plan.expression(["body"]);
  const value = plan.expression(["value"]);
  const cap = precise ? COMMON_TERM_DOCS : RANK_CAP;
  const hits = (index: FtsIndex, match: string, tier: number) =>
    ftsScoredHitsSql(db, index, match, cap, precise ? bm25Sql(db, index, "0.0, 1.0") : sql.raw(String(tier)));
  // Only the best `limit` tickets are wanted: a contact's newest `limit` tickets are enough among its hits.
  const contactScore = precise ? sql.raw("2.0 * s.score") : sql.raw("-3");
  const [t, m] = [ftsHitKeySql(db, sql.raw("t")), ftsHitKeySql(db, sql.raw("m"))];
  return sql`
      SELECT t.id, 2.0 * s.score FROM (${hits(ftsIndexes.ticketSubjects, subject, -3)}) s JOIN tickets t ON ${t} = s.rid
      UNION ALL
      SELECT m.ticket_id, s.score FROM (${hits(ftsIndexes.messageBodies, body, -1)}) s JOIN messages m ON ${m} = s.rid
      UNION ALL
      ${fieldValueScoredHitsSql(db, "ticket", hits(ftsIndexes.fieldValues, value, -2))}
      UNION ALL
      ${contactTicketsSql(db, plan, ctx.workspaceId, cap, limit, sql`t.id, ${contactScore}`, precise)}`;
}

/**
 * The tickets among `ids` the caller may see (the list's scope, spam left out), presented in the
 * order given: semantic search ranks ids outside SQL and keeps only what the tickets list would show.
 */
export async function visibleTicketsAmong(
  db: Queryable,
  ctx: RequestContext,
  ids: string[],
  limit: number,
): Promise<TicketJson[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(tickets)
    .where(and(inArray(tickets.id, ids), ...(await ticketScope(db, ctx)), eq(tickets.spam, false)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.flatMap((id) => byId.get(id) ?? []).slice(0, limit);
  return await presentTickets(db, ordered);
}

/**
 * What semantic search embeds of each live ticket among `ids`: the subject and the customer's own
 * words (inbound replies, oldest first), cut at `maxChars`. Deleted, merged or unknown ids are absent.
 */
export async function ticketTextsForEmbedding(
  db: Queryable,
  workspaceId: string,
  ids: string[],
  maxChars = 4000,
): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  if (ids.length === 0) return texts;
  const rows = await db
    .select({ id: tickets.id, subject: tickets.subject })
    .from(tickets)
    .where(and(eq(tickets.workspaceId, workspaceId), inArray(tickets.id, ids), liveTicket));
  for (const row of rows) texts.set(row.id, row.subject);
  if (rows.length === 0) return texts;
  const said = await db
    .select({ ticketId: messages.ticketId, body: messages.bodyText })
    .from(messages)
    .where(
      and(
        inArray(
          messages.ticketId,
          rows.map((r) => r.id),
        ),
        eq(messages.direction, "inbound"),
        eq(messages.kind, "reply"),
      ),
    )
    .orderBy(asc(messages.createdAt));
  for (const m of said) {
    const text = texts.get(m.ticketId)!;
    if (text.length < maxChars) texts.set(m.ticketId, `${text}\n\n${m.body}`.slice(0, maxChars));
  }
  return texts;
}

/** Live ticket ids of a workspace after `afterId` in id (creation) order: semantic search's backfill pages. */
export const liveTicketIdsAfter = async (
  db: Queryable,
  workspaceId: string,
  afterId: string,
  limit: number,
): Promise<string[]> =>
  (
    await db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.workspaceId, workspaceId), gt(tickets.id, afterId), liveTicket))
      .orderBy(asc(tickets.id))
      .limit(limit)
  ).map((r) => r.id);
