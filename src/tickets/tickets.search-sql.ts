import { sql, type SQL } from "drizzle-orm";
import { liveContactsOfHitsSql } from "../contacts/contacts.public";
import { fieldValueRecordsAmongSql } from "../custom-fields/custom-fields.public";
import type { Queryable } from "../db/database";
import {
  bm25Sql,
  ftsHitKeySql,
  ftsIndexes,
  ftsRowidsSql,
  ftsScoredHitsSql,
  MATCH_CAP,
  planSearch,
  RANK_CAP,
  ticketNumberOf,
  TICKETS_PER_CONTACT,
  type SearchPlan,
} from "../search/search.public";
import { ticketSqlParts } from "./tickets.statements";

/**
 * Ids of tickets whose subject, messages, custom text values or contact (name, email) match, and
 * the ticket whose number the query is (capped, newest hits first).
 */
export async function matchingTicketIdsSql(db: Queryable, q: string, workspaceId: string): Promise<SQL> {
  const quoted = ticketNumberOf(q);
  const byNumber = quoted
    ? sql`SELECT t.id FROM tickets t WHERE t.workspace_id = ${workspaceId} AND t.number = ${quoted.number}`
    : null;
  const plan = quoted?.only ? null : await planSearch(db, q);
  if (!plan) return byNumber ?? sql`SELECT NULL WHERE ${ticketSqlParts(db).noRowSql()}`;
  const subject = plan.expression(["subject"]);
  const body = plan.expression(["body"]);
  const value = plan.expression(["value"]);
  // Each hit costs a random read of its row (messages spread over gigabytes): broad queries read fewer.
  const cap = plan.precise ? MATCH_CAP : RANK_CAP;
  const [t, m] = [ftsHitKeySql(db, sql.raw("t")), ftsHitKeySql(db, sql.raw("m"))];
  const words = sql`SELECT t.id FROM tickets t WHERE ${t} IN (${ftsRowidsSql(db, ftsIndexes.ticketSubjects, subject, cap)})
    UNION SELECT m.ticket_id FROM messages m WHERE ${m} IN (${ftsRowidsSql(db, ftsIndexes.messageBodies, body, cap)})
    UNION ${fieldValueRecordsAmongSql(db, "ticket", ftsRowidsSql(db, ftsIndexes.fieldValues, value, cap))}
    UNION ${contactTicketsSql(db, plan, workspaceId, cap, TICKETS_PER_CONTACT, sql`t.id`)}`;
  return byNumber ? sql`${byNumber} UNION ${words}` : words;
}

/**
 * `SELECT <columns>` over the tickets of this workspace's contacts whose name or email match
 * (`c` the contact, `t` the ticket, `s.score` the contact's bm25 when `scored`): at most `contactCap`
 * contacts (newest index hits first) and each one's `perContact` newest tickets, through
 * tickets_ws_contact_idx, in the hits' order (`TicketSqlParts.contactTicketsJoinSql`). A contact's
 * rename or new email reaches these hits through contact_search's triggers (migrations/custom/0101).
 */
export function contactTicketsSql(
  db: Queryable,
  plan: SearchPlan,
  workspaceId: string,
  contactCap: number,
  perContact: number,
  columns: SQL,
  scored = false,
): SQL {
  const person = plan.expression(["name", "email"]);
  const score = scored ? bm25Sql(db, ftsIndexes.contacts, "0.0, 2.0, 1.0") : sql.raw("0");
  return sql`SELECT ${columns} FROM (${ftsScoredHitsSql(db, ftsIndexes.contacts, person, contactCap, score)}) s
    ${liveContactsOfHitsSql(db, workspaceId)}
    ${ticketSqlParts(db).contactTicketsJoinSql(perContact)}`;
}
