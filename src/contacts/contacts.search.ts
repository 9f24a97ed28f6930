import { and, inArray, isNull, sql } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { COMMON_TERM_DOCS, planSearch, RANK_CAP } from "../search/search.public";
import { presentContacts, type ContactJson } from "./contacts.present";
import { contacts } from "./contacts.table";

/** Contacts by relevance (bm25 over name and email when every term is rare), then recency: GET /v1/search. */
export function searchContacts(db: Queryable, ctx: RequestContext, q: string, limit: number): ContactJson[] {
  const plan = planSearch(db, q);
  if (!plan) return [];
  const precise = plan.precise;
  const person = plan.expression(["name", "email"]);
  const score = precise ? sql.raw("bm25(contact_search, 0.0, 2.0, 1.0)") : sql.raw("0");
  const ranked = db.all<{ id: string }>(sql`
    SELECT c.id AS id FROM (SELECT rowid AS rid, ${score} AS score FROM contact_search WHERE contact_search MATCH ${person} ORDER BY rowid DESC LIMIT ${precise ? COMMON_TERM_DOCS : RANK_CAP}) s
    JOIN contacts c ON c.rowid = s.rid
    WHERE c.workspace_id = ${ctx.workspaceId} AND c.deleted_at IS NULL
    ORDER BY s.score ASC, c.updated_at DESC, c.id DESC
    LIMIT ${limit}`);
  if (ranked.length === 0) return [];
  const rows = db
    .select()
    .from(contacts)
    .where(
      and(
        inArray(
          contacts.id,
          ranked.map((r) => r.id),
        ),
        isNull(contacts.deletedAt),
      ),
    )
    .all();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return presentContacts(db, ranked.map((r) => byId.get(r.id)!).filter(Boolean));
}
