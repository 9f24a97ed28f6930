import { sql, type SQL } from "drizzle-orm";
import { liveContactsOfHitsSql } from "../contacts/contacts.public";
import { fieldValueRecordsAmongSql } from "../custom-fields/custom-fields.public";
import type { Queryable } from "../db/database";
import {
  bm25Sql,
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
  if (!plan) return byNumber ?? sql`SELECT NULL WHERE 0`;
  const subject = plan.expression(["subject"]);
  const body = plan.expression(["body"]);
  const value = plan.expression(["value"]);
  // Each hit costs a random read of its row (messages spread over gigabytes): broad queries read fewer.
  const cap = plan.precise ? MATCH_CAP : RANK_CAP;
  const words = sql`SELECT t.id FROM tickets t WHERE t.rowid IN (${ftsRowidsSql(ftsIndexes.ticketSubjects, subject, cap)})
    UNION SELECT m.ticket_id FROM messages m WHERE m.rowid IN (${ftsRowidsSql(ftsIndexes.messageBodies, body, cap)})
    UNION ${fieldValueRecordsAmongSql("ticket", ftsRowidsSql(ftsIndexes.fieldValues, value, cap))}
    UNION ${contactTicketsSql(plan, workspaceId, cap, TICKETS_PER_CONTACT, sql`t.id`)}`;
  return byNumber ? sql`${byNumber} UNION ${words}` : words;
}

/**
 * `SELECT <columns>` over the tickets of this workspace's contacts whose name or email match
 * (`c` the contact, `t` the ticket, `s.score` the contact's bm25 when `scored`): at most `contactCap`
 * contacts (newest index hits first) and each one's `perContact` newest tickets, through
 * tickets_ws_contact_idx. CROSS JOIN keeps that order: given a workspace filter on contacts, SQLite
 * would otherwise walk every contact of the workspace and probe the hits. A contact's rename or new email reaches these hits through contact_search's
 * triggers (migrations/custom/0101).
 */
export function contactTicketsSql(
  plan: SearchPlan,
  workspaceId: string,
  contactCap: number,
  perContact: number,
  columns: SQL,
  scored = false,
): SQL {
  const person = plan.expression(["name", "email"]);
  const score = scored ? bm25Sql(ftsIndexes.contacts, "0.0, 2.0, 1.0") : sql.raw("0");
  return sql`SELECT ${columns} FROM (${ftsScoredHitsSql(ftsIndexes.contacts, person, contactCap, score)}) s
    ${liveContactsOfHitsSql(workspaceId)}
    CROSS JOIN tickets t ON t.rowid IN (SELECT t2.rowid FROM tickets t2 WHERE t2.workspace_id = c.workspace_id AND t2.contact_id = c.id ORDER BY t2.last_message_at DESC LIMIT ${perContact})`;
}
