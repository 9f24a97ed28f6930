import { sql, type SQL } from "drizzle-orm";
import { text, sqliteTable } from "drizzle-orm/sqlite-core";
import type { RequestContext } from "../auth/context";
import { fieldFilterSql, type FieldDef } from "../custom-fields/custom-fields.public";
import type { Queryable } from "../db/database";
import { rowsOf } from "../db/store";

/**
 * A one-row derived table naming the record a custom-field condition is asked about, so the
 * condition runs through the very SQL of the list filters (`fieldFilterSql`): the same operators,
 * case rules and option checks as `GET /v1/tickets?field.<key>[op]=`. Never created in the database.
 */
const probe = sqliteTable("automation_probe", { id: text("id") });

/** `equals`/`not_equals` read as the filters' `eq`/`ne` (SPEC.md); the type operators pass as they are. */
export const filterOp = (op: string): string => (op === "equals" ? "eq" : op === "not_equals" ? "ne" : op);

/** The WHERE fragment of one custom-field condition (throws the filters' 422 when it is invalid). */
export async function fieldConditionSql(
  db: Queryable,
  ctx: RequestContext,
  entity: "ticket" | "contact",
  key: string,
  op: string,
  value: string,
): Promise<SQL> {
  return await fieldFilterSql(ctx, entity, { key, op: filterOp(op), value }, probe.id, db);
}

/** Whether the record holds the condition (a record of no kind, such as a ticket without contact, holds none). */
export async function fieldConditionHolds(db: Queryable, recordId: string | null, condition: SQL): Promise<boolean> {
  if (!recordId) return false;
  return (
    (await rowsOf(db, sql`SELECT 1 FROM (SELECT ${recordId} AS id) AS automation_probe WHERE ${condition}`)).length > 0
  );
}

/**
 * A set_field action's value (always text on the wire) as the field's type takes it: a number,
 * true/false, a date, comma-separated option ids; empty clears.
 */
export function typedFieldValue(def: FieldDef, value: string): unknown {
  const text = value.trim();
  if (text === "") return null;
  switch (def.type) {
    case "number":
      return Number.isFinite(Number(text)) ? Number(text) : text;
    case "checkbox":
      return text === "true" ? true : text === "false" ? false : text;
    case "multi_select":
      return text
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
    default:
      return text;
  }
}
