import { asc, type Column, desc, lt, sql, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { decodeCursor } from "../db/cursor";
import type { Queryable } from "../db/database";
import { fieldSortOrderSql, fieldSortSql } from "../custom-fields/fields.public";
import { invalidAt } from "../lib/errors";

type CursorValue = string | number | null;

/**
 * How a contact or company list is ordered and paged: newest first on the (time-ordered) id by
 * default, with the one-value cursor it always had; `sort=field.<key>` (text, number, date, checkbox
 * and select fields, as on tickets; records without a value sort lowest) keys pages on
 * (value, id) so a page never repeats or skips a record whose value did not change.
 */
export type RecordSortPlan = {
  /** The sort value selected beside each row (NULL for the default order). */
  key: SQL;
  orderBy: SQL[];
  /** Conditions for the rows after the cursor; none without one. */
  after: SQL[];
  cursorOf: (id: string, value: CursorValue) => CursorValue[];
};

export async function recordSortPlan(
  db: Queryable,
  ctx: RequestContext,
  entity: "contact" | "company",
  idColumn: Column,
  query: { sort?: string; order?: "asc" | "desc"; cursor?: string },
): Promise<RecordSortPlan> {
  const name = query.sort ?? "created_at";
  if (name === "created_at") {
    const order = query.order ?? "desc";
    const cursor = decodeCursor(query.cursor, 1);
    const direction = order === "desc" ? desc : asc;
    return {
      key: sql`NULL`,
      orderBy: [direction(idColumn)],
      after: cursor
        ? [order === "desc" ? lt(idColumn, String(cursor[0])) : sql`${idColumn} > ${String(cursor[0])}`]
        : [],
      cursorOf: (id) => [id],
    };
  }
  if (!name.startsWith("field.")) throw invalidAt("query.sort", "sort is created_at or field.<key>");
  const key = await fieldSortSql(ctx, entity, name.slice(6), idColumn, db);
  const order = query.order ?? "asc";
  const direction = order === "desc" ? desc : asc;
  const cursor = decodeCursor(query.cursor, 4);
  const after: SQL[] = [];
  if (cursor) {
    const [sortName, cursorOrder, value, id] = cursor;
    if (sortName !== name || cursorOrder !== order || typeof id !== "string")
      throw invalidAt("query.cursor", "the cursor belongs to another sort order");
    after.push(afterCursor(key, idColumn, order, value ?? null, id));
  }
  return {
    key,
    orderBy: [fieldSortOrderSql(db, key, order), direction(idColumn)],
    after,
    cursorOf: (id, value) => [name, order, value, id],
  };
}

/** Rows strictly after (value, id) in the list's order; a null value sorts lowest, as SQLite orders it. */
function afterCursor(k: SQL, id: Column, order: "asc" | "desc", value: CursorValue, last: string): SQL {
  if (order === "desc") {
    if (value === null) return sql`(${k} IS NULL AND ${id} < ${last})`;
    return sql`(${k} < ${value} OR (${k} = ${value} AND ${id} < ${last}) OR ${k} IS NULL)`;
  }
  if (value === null) return sql`((${k} IS NULL AND ${id} > ${last}) OR ${k} IS NOT NULL)`;
  return sql`(${k} > ${value} OR (${k} = ${value} AND ${id} > ${last}))`;
}
