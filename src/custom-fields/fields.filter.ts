import { type Column, sql, type SQL } from "drizzle-orm";
import { actorUserId, type RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { rowsOf } from "../db/store";
import { invalidAt } from "../lib/errors";
import { definitionByKey, fieldSqlParts, type FieldSqlParts } from "./fields.statements";
import type { FieldType } from "./fields.table";
import { isCalendarDate, type FieldDef, type FieldEntity } from "./fields.values";

export type FieldFilter = { key: string; op: string | null; value: string };

/** Operators by type; the first is the default (SPEC.md, custom field filters). */
export const OPERATORS: Record<FieldType, readonly string[]> = {
  text: ["eq", "ne", "contains", "not_contains", "set", "not_set"],
  long_text: ["eq", "ne", "contains", "not_contains", "set", "not_set"],
  url: ["eq", "ne", "contains", "not_contains", "set", "not_set"],
  email: ["eq", "ne", "contains", "not_contains", "set", "not_set"],
  number: ["eq", "ne", "gt", "gte", "lt", "lte", "set", "not_set"],
  date: ["eq", "ne", "gt", "gte", "lt", "lte", "set", "not_set"],
  checkbox: ["eq", "ne", "set", "not_set"],
  select: ["any", "eq", "ne", "none", "set", "not_set"],
  user: ["any", "eq", "ne", "none", "set", "not_set"],
  multi_select: ["any", "all", "none", "eq", "ne", "set", "not_set"],
};
const SORTABLE: FieldType[] = ["text", "number", "date", "checkbox", "select"];
const FILTER_RE = /^field\.([a-z][a-z0-9_]{0,39})(?:\[([a-z_]+)\])?$/;

/** The field of `key` in the database the caller's list query runs on. */
async function findDefinition(db: Queryable, workspaceId: string, entity: FieldEntity, key: string) {
  const def = await definitionByKey(db, workspaceId, entity, key);
  return def ? { def, db } : undefined;
}

/**
 * Below this many matching values a filter reads its records from the value index (`id IN (…)`),
 * which SQLite drives from the short list; above it, the list query walks records newest first and
 * probes each one's value (EXISTS), stopping after a page. Counting stops at the bound, so the
 * estimate costs at most this many index entries.
 */
export const SELECTIVE_VALUES = 1000;

async function isSelective(db: Queryable, fieldId: string, cond: SQL): Promise<boolean> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM field_values fv WHERE fv.field_id = ${fieldId} AND ${cond} LIMIT ${SELECTIVE_VALUES}) x`,
  );
  return (row?.n ?? 0) < SELECTIVE_VALUES;
}

/** Reads `field.<key>=v` and `field.<key>[op]=v` (also when the query parser nested the brackets). */
export function parseFieldFilters(query: Record<string, unknown>): FieldFilter[] {
  const out: FieldFilter[] = [];
  const asText = (v: unknown): string | null =>
    typeof v === "string"
      ? v
      : typeof v === "number" || typeof v === "boolean"
        ? String(v)
        : Array.isArray(v) && v.every((x) => typeof x === "string")
          ? v.join(",")
          : null;
  for (const [name, raw] of Object.entries(query)) {
    if (!name.startsWith("field.")) continue;
    const match = FILTER_RE.exec(name);
    if (!match) throw invalidAt(`query.${name.slice(0, 60)}`, "a field filter is field.<key> or field.<key>[<op>]");
    if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
      for (const [op, value] of Object.entries(raw)) {
        const text = asText(value);
        if (text === null) throw invalidAt(`query.field.${match[1]}`, "a field filter value is text");
        out.push({ key: match[1]!, op, value: text });
      }
      continue;
    }
    const text = asText(raw);
    if (text === null) throw invalidAt(`query.field.${match[1]}`, "a field filter value is text");
    out.push({ key: match[1]!, op: match[2] ?? null, value: text });
  }
  return out;
}

const list = (value: string): string[] => [
  ...new Set(
    value
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean),
  ),
];

/**
 * A WHERE fragment for one custom field filter on the record in `recordIdColumn`. Negative
 * operators (ne, not_contains, none, not_set) also match records without a value; an unchecked
 * checkbox and an unset one read the same.
 */
export async function fieldFilterSql(
  ctx: RequestContext,
  entity: FieldEntity,
  filter: FieldFilter,
  recordIdColumn: Column,
  db: Queryable,
): Promise<SQL> {
  const location = `query.field.${filter.key}`;
  const found = await findDefinition(db, ctx.workspaceId, entity, filter.key);
  if (!found) throw invalidAt(location, `no ${entity} field has the key ${filter.key}`);
  const { def } = found;
  const type = def.type as FieldType;
  const allowed = OPERATORS[type];
  const op = filter.op ?? allowed[0]!;
  if (!allowed.includes(op)) throw invalidAt(location, `a ${type} field takes the operators ${allowed.join(", ")}`);
  // `indexed`: the condition can be answered from the value indexes (see fields.table.ts).
  const having = async (cond: SQL, indexed = false) =>
    indexed && (await isSelective(found.db, def.id, cond))
      ? sql`${recordIdColumn} IN (SELECT fv.record_id FROM field_values fv WHERE fv.field_id = ${def.id} AND ${cond})`
      : sql`EXISTS (SELECT 1 FROM field_values fv WHERE fv.entity = ${entity} AND fv.record_id = ${recordIdColumn} AND fv.field_id = ${def.id} AND ${cond})`;
  const lacking = (cond: SQL) =>
    sql`NOT EXISTS (SELECT 1 FROM field_values fv WHERE fv.entity = ${entity} AND fv.record_id = ${recordIdColumn} AND fv.field_id = ${def.id} AND ${cond})`;
  const parts = fieldSqlParts(db);
  if (op === "set") return await having(sql`true`, true);
  if (op === "not_set") return lacking(sql`true`);
  const value = filter.value.trim();
  if (value === "") throw invalidAt(location, `the ${op} operator needs a value`);

  switch (type) {
    case "text":
    case "long_text":
    case "url":
    case "email": {
      const needle = value.toLowerCase();
      const equal = parts.textEqualsSql(needle);
      if (op === "eq") return await having(equal, true);
      if (op === "ne") return lacking(equal);
      if (op === "contains") return await having(parts.textContainsSql(needle));
      return lacking(parts.textContainsSql(needle));
    }
    case "number":
    case "date": {
      let operand: string | number;
      if (type === "number") {
        operand = Number(value);
        if (!Number.isFinite(operand)) throw invalidAt(location, "a number filter takes a number");
      } else {
        if (!isCalendarDate(value)) throw invalidAt(location, "a date filter takes YYYY-MM-DD");
        operand = value;
      }
      const column = type === "number" ? sql.raw("fv.value_num") : parts.dateColumnSql();
      const comparison = { eq: "=", ne: "=", gt: ">", gte: ">=", lt: "<", lte: "<=" }[op as "eq"];
      const cond = sql`${column} ${sql.raw(comparison)} ${operand}`;
      return op === "ne" ? lacking(cond) : await having(cond, true);
    }
    case "checkbox": {
      if (value !== "true" && value !== "false") throw invalidAt(location, "a checkbox filter takes true or false");
      const checked = (value === "true") === (op === "eq");
      return checked ? await having(sql`fv.value_num = 1`, true) : lacking(sql`fv.value_num = 1`);
    }
    case "select":
    case "user":
      return await choiceFilter(ctx, def, type, op, value, location, { having, lacking, parts });
    case "multi_select":
      return await multiChoiceFilter(def, op, value, location, { having, lacking, parts });
  }
}

/** A record having, or lacking, a value of the field that meets a condition (`having` may read the value index). */
type Matchers = {
  having: (cond: SQL, indexed?: boolean) => SQL | Promise<SQL>;
  lacking: (cond: SQL) => SQL;
  parts: FieldSqlParts;
};

/** A select or person field: its option ids or user ids (`me`: the caller). */
async function choiceFilter(
  ctx: RequestContext,
  def: FieldDef,
  type: "select" | "user",
  op: string,
  value: string,
  location: string,
  m: Matchers,
): Promise<SQL> {
  const me = actorUserId(ctx);
  const ids = list(value).map((v) => (type === "user" && v === "me" ? (me ?? "\u0000no-user") : v));
  if (ids.length === 0) throw invalidAt(location, `the ${op} operator needs a value`);
  if (type === "select") {
    const unknown = ids.find((id) => !def.options.some((o) => o.id === id));
    if (unknown !== undefined) throw invalidAt(location, `"${unknown.slice(0, 60)}" is not an option of ${def.key}`);
  }
  if ((op === "eq" || op === "ne") && ids.length > 1)
    throw invalidAt(location, `the ${op} operator takes one value; use any or none for a list`);
  const cond = m.parts.textAmongSql(ids);
  return op === "any" || op === "eq" ? await m.having(cond, true) : m.lacking(cond);
}

/** A multi-select field: any, none, all or exactly these options. */
async function multiChoiceFilter(
  def: FieldDef,
  op: string,
  value: string,
  location: string,
  m: Matchers,
): Promise<SQL> {
  const ids = list(value);
  const unknown = ids.find((id) => !def.options.some((o) => o.id === id));
  if (unknown !== undefined) throw invalidAt(location, `"${unknown.slice(0, 60)}" is not an option of ${def.key}`);
  const anyOf = m.parts.listHoldsAnySql(ids);
  const allOf = sql.join(
    ids.map((id) => m.parts.listHoldsSql(id)),
    sql` AND `,
  );
  const exactly = sql`${allOf} AND ${m.parts.listLengthSql()} = ${ids.length}`;
  if (op === "any") return await m.having(anyOf);
  if (op === "none") return m.lacking(anyOf);
  if (op === "all") return await m.having(allOf);
  if (op === "eq") return await m.having(exactly);
  return m.lacking(exactly);
}

/** `key` (from `fieldSortSql`) as an ORDER BY term of `direction`, records without a value lowest on both engines. */
export const fieldSortOrderSql = (db: Queryable, key: SQL, direction: "asc" | "desc"): SQL =>
  fieldSqlParts(db).sortOrderSql(key, direction);

/**
 * A scalar subquery giving the sort key of a record's value (records without one give NULL, which
 * SQLite sorts lowest; order by `fieldSortOrderSql` for the same on PostgreSQL). Select fields sort
 * by option order, text ignoring case.
 */
export async function fieldSortSql(
  ctx: RequestContext,
  entity: FieldEntity,
  key: string,
  recordIdColumn: Column,
  db: Queryable,
): Promise<SQL> {
  const location = "query.sort";
  const def = (await findDefinition(db, ctx.workspaceId, entity, key))?.def;
  if (!def) throw invalidAt(location, `no ${entity} field has the key ${key}`);
  const type = def.type as FieldType;
  if (!SORTABLE.includes(type)) throw invalidAt(location, `lists sort by ${SORTABLE.join(", ")} fields, not ${type}`);
  let expression: SQL;
  if (type === "number" || type === "checkbox") expression = sql`fv.value_num`;
  else if (type === "select") {
    expression = def.options.length
      ? sql`CASE fv.value_text ${sql.join(
          def.options.map((o, i) => sql`WHEN ${o.id} THEN ${i}`),
          sql` `,
        )} END`
      : sql`NULL`;
  } else if (type === "text") expression = sql`lower(fv.value_text)`;
  else expression = sql`fv.value_text`;
  return sql`(SELECT ${expression} FROM field_values fv WHERE fv.entity = ${entity} AND fv.record_id = ${recordIdColumn} AND fv.field_id = ${def.id})`;
}
