import { sql, type SQL } from "drizzle-orm";
import { fieldValueRecordsAmongSql } from "../custom-fields/custom-fields.public";
import { ftsHitKeySql, ftsIndexes, ftsRowidsSql, MATCH_CAP, planSearch } from "../search/search.public";
import type { Queryable } from "../db/database";
import { contactSqlParts } from "./contacts.statements";

/**
 * Joins the contact-index hits `s` (`s.rid`, naming a contact as `ftsHitKeySql` does) to the
 * workspace's live contacts as `c` (with `c.id` and `c.workspace_id`): the tickets' search reaches
 * each contact's tickets from here.
 */
export const liveContactsOfHitsSql = (db: Queryable, workspaceId: string): SQL =>
  contactSqlParts(db).contactsJoinSql(
    sql`${ftsHitKeySql(db, sql.raw("c"))} = s.rid AND c.workspace_id = ${workspaceId} AND c.deleted_at IS NULL`,
  );

/** Ids of contacts whose name, email or custom text values match: for `q` on the contact list. */
export async function matchingContactIdsSql(db: Queryable, q: string): Promise<SQL> {
  const plan = await planSearch(db, q);
  if (!plan) return sql`SELECT NULL WHERE false`;
  const person = plan.expression(["name", "email"]);
  const value = plan.expression(["value"]);
  return sql`SELECT c.id FROM contacts c WHERE ${ftsHitKeySql(db, sql.raw("c"))} IN (${ftsRowidsSql(db, ftsIndexes.contacts, person, MATCH_CAP)})
    UNION ${fieldValueRecordsAmongSql(db, "contact", ftsRowidsSql(db, ftsIndexes.fieldValues, value, MATCH_CAP))}`;
}
