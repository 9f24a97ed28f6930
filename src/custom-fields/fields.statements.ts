import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements, inListSql, listParam } from "../db/dialect";
import { preparedFor } from "../db/sqlite/prepared";
import type { FieldOption, FieldType } from "./fields.table";
import type { FieldDef, StoredValue } from "./fields.values";

/** custom_fields as SQLite returns it: JSON as text, flags as 0/1. */
type RawDef = Omit<FieldDef, "options" | "requiredOnSolve" | "archived"> & {
  options: string;
  requiredOnSolve: number;
  archived: number;
};
type RawValue = {
  recordId: string;
  key: string;
  type: FieldType;
  valueText: string | null;
  valueNum: number | null;
  valueJson: string | null;
};
export type ValueRow = Omit<RawValue, "valueJson"> & StoredValue;

const DEF = `id, workspace_id AS workspaceId, entity, key, name, type, options, required_on_solve AS requiredOnSolve, description,
  position, archived, created_at AS createdAt, updated_at AS updatedAt`;
const VALUE =
  "fv.record_id AS recordId, cf.key, cf.type, fv.value_text AS valueText, fv.value_num AS valueNum, fv.value_json AS valueJson";
/** Field order; the id breaks ties so values and definitions always list keys alike. */
const FIELD_ORDER = "ORDER BY cf.position, cf.created_at, cf.id";

const statements = preparedFor((sqlite) => ({
  definitions: sqlite.query<RawDef, [string, string]>(
    `SELECT ${DEF} FROM custom_fields WHERE workspace_id = +? AND entity = +? ORDER BY position, created_at, id`,
  ),
  definition: sqlite.query<RawDef, [string, string, string]>(
    `SELECT ${DEF} FROM custom_fields WHERE workspace_id = +? AND entity = +? AND key = +?`,
  ),
  valuesOfOne: sqlite.query<RawValue, [string, string]>(
    `SELECT ${VALUE} FROM field_values fv JOIN custom_fields cf ON cf.id = fv.field_id WHERE fv.entity = +? AND fv.record_id = +? ${FIELD_ORDER}`,
  ),
  valuesOfMany: sqlite.query<RawValue, [string, string]>(
    `SELECT ${VALUE} FROM field_values fv JOIN custom_fields cf ON cf.id = fv.field_id
     WHERE fv.entity = +? AND ${inListSql("fv.record_id")} ${FIELD_ORDER}`,
  ),
  upsert: sqlite.query<unknown, [string, string, string, string, string | null, number | null, string | null]>(
    `INSERT INTO field_values (workspace_id, entity, record_id, field_id, value_text, value_num, value_json) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (entity, record_id, field_id) DO UPDATE SET value_text = excluded.value_text, value_num = excluded.value_num, value_json = excluded.value_json`,
  ),
  remove: sqlite.query<unknown, [string, string, string]>(
    "DELETE FROM field_values WHERE entity = +? AND record_id = +? AND field_id = +?",
  ),
}));

const definitionOf = (raw: RawDef): FieldDef => ({
  ...raw,
  options: JSON.parse(raw.options) as FieldOption[],
  requiredOnSolve: raw.requiredOnSolve === 1,
  archived: raw.archived === 1,
});
const valueRowOf = (raw: RawValue): ValueRow => ({
  ...raw,
  valueJson: raw.valueJson === null ? null : (JSON.parse(raw.valueJson) as string[]),
});

/** A workspace's fields of one entity, in field order. */
export const definitionsOf = async (db: Queryable, workspaceId: string, entity: string): Promise<FieldDef[]> =>
  statements(db).definitions.all(workspaceId, entity).map(definitionOf);

export async function definitionByKey(
  db: Queryable,
  workspaceId: string,
  entity: string,
  key: string,
): Promise<FieldDef | undefined> {
  const raw = statements(db).definition.get(workspaceId, entity, key);
  return raw ? definitionOf(raw) : undefined;
}

/** Stored values of the records (in field order); one statement whatever the number of ids. */
export async function storedValuesOf(db: Queryable, entity: string, recordIds: string[]): Promise<ValueRow[]> {
  const s = statements(db);
  const raw =
    recordIds.length === 1
      ? s.valuesOfOne.all(entity, recordIds[0]!)
      : s.valuesOfMany.all(entity, listParam(recordIds));
  return raw.map(valueRowOf);
}

export async function writeStoredValue(
  db: Queryable,
  workspaceId: string,
  entity: string,
  recordId: string,
  fieldId: string,
  stored: StoredValue | null,
): Promise<void> {
  const s = statements(db);
  if (stored === null) s.remove.run(entity, recordId, fieldId);
  else
    s.upsert.run(
      workspaceId,
      entity,
      recordId,
      fieldId,
      stored.valueText,
      stored.valueNum,
      stored.valueJson === null ? null : JSON.stringify(stored.valueJson),
    );
}

/**
 * The parts of custom field filters and option removal whose SQL differs by engine, over a value row
 * aliased `fv`. SQLite answers case-insensitive comparisons through the NOCASE indexes on
 * `value_text` (fields.table.ts) and walks multi-select lists with `json_each`. A PostgreSQL twin
 * compares `lower(fv.value_text)` (an expression index on it), finds `strpos` in place of `instr`,
 * and tests and edits the `jsonb` list with `@>`, `jsonb_array_elements_text` and `jsonb_array_length`.
 */
export type FieldSqlParts = {
  /** The text value equals `needle` (already lower-cased), ignoring ASCII case, through the text index. */
  textEqualsSql(needle: string): SQL;
  /** The lower-cased text value contains `needle` (already lower-cased). */
  textContainsSql(needle: string): SQL;
  /** The text value as date filters compare it (YYYY-MM-DD orders alike either way), through the text index. */
  dateColumnSql(): SQL;
  /** The text value is exactly one of `values` (case-sensitive), found through the case-insensitive index. */
  textAmongSql(values: readonly string[]): SQL;
  /** The multi-select list holds `id`. */
  listHoldsSql(id: string): SQL;
  /** The multi-select list holds any of `ids`. */
  listHoldsAnySql(ids: readonly string[]): SQL;
  /** How many options the multi-select list holds. */
  listLengthSql(): SQL;
  /** The statements, run in order, that take `gone` out of the field's multi-select lists and drop those left empty. */
  removeListOptionsSql(fieldId: string, gone: readonly string[]): SQL[];
};

const valuesSql = (values: readonly string[]): SQL =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** Fragments only: they need no connection, and the statements run on the caller's change. */
const sqliteFieldParts = (): FieldSqlParts => ({
  // NOCASE folds ASCII case only, as lower() does; with a lower-cased needle this is
  // lower(value_text) = needle, in the form the NOCASE index answers.
  textEqualsSql: (needle) => sql`fv.value_text = ${needle} COLLATE NOCASE`,
  textContainsSql: (needle) => sql`instr(lower(fv.value_text), ${needle}) > 0`,
  dateColumnSql: () => sql.raw("fv.value_text COLLATE NOCASE"),
  // The NOCASE index finds the candidates; the exact comparison keeps ids case-sensitive.
  textAmongSql: (values) =>
    sql`fv.value_text COLLATE NOCASE IN (${valuesSql(values)}) AND fv.value_text IN (${valuesSql(values)})`,
  listHoldsSql: (id) => sql`EXISTS (SELECT 1 FROM json_each(fv.value_json) j WHERE j.value = ${id})`,
  listHoldsAnySql: (ids) => sql`EXISTS (SELECT 1 FROM json_each(fv.value_json) j WHERE j.value IN (${valuesSql(ids)}))`,
  listLengthSql: () => sql`json_array_length(fv.value_json)`,
  removeListOptionsSql: (fieldId, gone) => {
    const list = valuesSql(gone);
    return [
      sql`UPDATE field_values SET value_json = (SELECT json_group_array(j.value) FROM json_each(field_values.value_json) j WHERE j.value NOT IN (${list}))
    WHERE field_id = ${fieldId} AND EXISTS (SELECT 1 FROM json_each(field_values.value_json) j WHERE j.value IN (${list}))`,
      sql`DELETE FROM field_values WHERE field_id = ${fieldId} AND json_array_length(value_json) = 0`,
    ];
  },
});

export const fieldSqlParts = dialectStatements<FieldSqlParts>({ sqlite: sqliteFieldParts });
