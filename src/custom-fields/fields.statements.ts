import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements, inListSql, listParam } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
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

const sqliteStatements = preparedFor((sqlite) => ({
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

/**
 * The definition and value reads and writes of every field-bearing request (prepared once per
 * connection on SQLite). The PostgreSQL twin runs the same SQL with camelCase aliases quoted, turns
 * the `jsonb` columns back into JSON text and reads the flags as 0/1 (so both engines hand the same
 * rows to `definitionOf`/`valueRowOf`), and writes the list as `jsonb`.
 */
type FieldStatements = {
  definitions(workspaceId: string, entity: string): Promise<RawDef[]>;
  definition(workspaceId: string, entity: string, key: string): Promise<RawDef | null>;
  valuesOfOne(entity: string, recordId: string): Promise<RawValue[]>;
  valuesOfMany(entity: string, recordIds: string): Promise<RawValue[]>;
  upsert(
    workspaceId: string,
    entity: string,
    recordId: string,
    fieldId: string,
    valueText: string | null,
    valueNum: number | null,
    valueJson: string | null,
  ): Promise<void>;
  remove(entity: string, recordId: string, fieldId: string): Promise<void>;
};

const DEF_PG = `id, workspace_id AS "workspaceId", entity, key, name, type, options, required_on_solve::int AS "requiredOnSolve",
  description, position, archived::int AS archived, created_at AS "createdAt", updated_at AS "updatedAt"`;
const VALUE_PG =
  'fv.record_id AS "recordId", cf.key, cf.type, fv.value_text AS "valueText", fv.value_num AS "valueNum", fv.value_json AS "valueJson"';

/**
 * A `jsonb` value as Bun's client answers it (parsed) back to the JSON text SQLite answers. A
 * string is already that text: a jsonb string holding JSON, as drizzle's jsonb column stored values
 * through Bun's client before the schema kit passed them through (src/db/schema-kit.ts).
 */
const jsonTextOf = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));
const pgDef = (raw: RawDef): RawDef => ({ ...raw, options: jsonTextOf(raw.options) });
const pgValue = (raw: RawValue): RawValue => ({
  ...raw,
  valueJson: raw.valueJson === null ? null : jsonTextOf(raw.valueJson),
});

type UpsertParams = [string, string, string, string, string | null, number | null, string | null];

const fieldStatements = dialectStatements<FieldStatements>({
  sqlite: (db) => {
    const s = sqliteStatements(db);
    return {
      definitions: async (workspaceId, entity) => s.definitions.all(workspaceId, entity),
      definition: async (workspaceId, entity, key) => s.definition.get(workspaceId, entity, key),
      valuesOfOne: async (entity, recordId) => s.valuesOfOne.all(entity, recordId),
      valuesOfMany: async (entity, recordIds) => s.valuesOfMany.all(entity, recordIds),
      upsert: async (...params) => {
        s.upsert.run(...params);
      },
      remove: async (entity, recordId, fieldId) => {
        s.remove.run(entity, recordId, fieldId);
      },
    };
  },
  postgres: (db) => {
    const definitions = postgresQuery<RawDef, [string, string]>(
      db,
      `SELECT ${DEF_PG} FROM custom_fields WHERE workspace_id = ? AND entity = ? ORDER BY position, created_at, id`,
    );
    const definition = postgresQuery<RawDef, [string, string, string]>(
      db,
      `SELECT ${DEF_PG} FROM custom_fields WHERE workspace_id = ? AND entity = ? AND key = ?`,
    );
    const valuesOfOne = postgresQuery<RawValue, [string, string]>(
      db,
      `SELECT ${VALUE_PG} FROM field_values fv JOIN custom_fields cf ON cf.id = fv.field_id WHERE fv.entity = ? AND fv.record_id = ? ${FIELD_ORDER}`,
    );
    const valuesOfMany = postgresQuery<RawValue, [string, string]>(
      db,
      `SELECT ${VALUE_PG} FROM field_values fv JOIN custom_fields cf ON cf.id = fv.field_id
     WHERE fv.entity = ? AND ${inListSql("fv.record_id", "postgres")} ${FIELD_ORDER}`,
    );
    const upsert = postgresQuery<unknown, UpsertParams>(
      db,
      `INSERT INTO field_values (workspace_id, entity, record_id, field_id, value_text, value_num, value_json) VALUES (?, ?, ?, ?, ?, ?, ?::text::jsonb)
     ON CONFLICT (entity, record_id, field_id) DO UPDATE SET value_text = excluded.value_text, value_num = excluded.value_num, value_json = excluded.value_json`,
    );
    const remove = postgresQuery<unknown, [string, string, string]>(
      db,
      "DELETE FROM field_values WHERE entity = ? AND record_id = ? AND field_id = ?",
    );
    return {
      definitions: async (workspaceId, entity) => (await definitions.all(workspaceId, entity)).map(pgDef),
      definition: async (workspaceId, entity, key) => {
        const raw = await definition.get(workspaceId, entity, key);
        return raw ? pgDef(raw) : null;
      },
      valuesOfOne: async (entity, recordId) => (await valuesOfOne.all(entity, recordId)).map(pgValue),
      valuesOfMany: async (entity, recordIds) => (await valuesOfMany.all(entity, recordIds)).map(pgValue),
      upsert: (...params) => upsert.run(...params),
      remove: (entity, recordId, fieldId) => remove.run(entity, recordId, fieldId),
    };
  },
});

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
  (await fieldStatements(db).definitions(workspaceId, entity)).map(definitionOf);

export async function definitionByKey(
  db: Queryable,
  workspaceId: string,
  entity: string,
  key: string,
): Promise<FieldDef | undefined> {
  const raw = await fieldStatements(db).definition(workspaceId, entity, key);
  return raw ? definitionOf(raw) : undefined;
}

/** Stored values of the records (in field order); one statement whatever the number of ids. */
export async function storedValuesOf(db: Queryable, entity: string, recordIds: string[]): Promise<ValueRow[]> {
  const s = fieldStatements(db);
  const raw =
    recordIds.length === 1
      ? await s.valuesOfOne(entity, recordIds[0]!)
      : await s.valuesOfMany(entity, listParam(recordIds));
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
  const s = fieldStatements(db);
  if (stored === null) await s.remove(entity, recordId, fieldId);
  else
    await s.upsert(
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
  /**
   * A sort key (`fieldSortSql`) as an ORDER BY term of `direction`, records without a value lowest
   * as SQLite orders NULL (PostgreSQL puts NULL highest unless told: `NULLS FIRST` ascending,
   * `NULLS LAST` descending).
   */
  sortOrderSql(key: SQL, direction: "asc" | "desc"): SQL;
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
  // drizzle's asc()/desc() text.
  sortOrderSql: (key, direction) => (direction === "desc" ? sql`${key} desc` : sql`${key} asc`),
});

const postgresFieldParts = (): FieldSqlParts => ({
  textEqualsSql: (needle) => sql`lower(fv.value_text) = ${needle}`,
  textContainsSql: (needle) => sql`strpos(lower(fv.value_text), ${needle}) > 0`,
  dateColumnSql: () => sql.raw("lower(fv.value_text)"),
  // The lower() index finds the candidates; the exact comparison keeps ids case-sensitive.
  textAmongSql: (values) =>
    sql`lower(fv.value_text) IN (${valuesSql(values.map((v) => v.toLowerCase()))}) AND fv.value_text IN (${valuesSql(values)})`,
  listHoldsSql: (id) => sql`fv.value_json @> jsonb_build_array(${id}::text)`,
  listHoldsAnySql: (ids) =>
    sql`EXISTS (SELECT 1 FROM jsonb_array_elements_text(fv.value_json) j(value) WHERE j.value IN (${valuesSql(ids)}))`,
  listLengthSql: () => sql`jsonb_array_length(fv.value_json)`,
  removeListOptionsSql: (fieldId, gone) => {
    const list = valuesSql(gone);
    return [
      sql`UPDATE field_values SET value_json = (SELECT coalesce(jsonb_agg(j.value ORDER BY j.n), '[]'::jsonb)
        FROM jsonb_array_elements_text(field_values.value_json) WITH ORDINALITY j(value, n) WHERE j.value NOT IN (${list}))
    WHERE field_id = ${fieldId} AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(field_values.value_json) j(value) WHERE j.value IN (${list}))`,
      sql`DELETE FROM field_values WHERE field_id = ${fieldId} AND jsonb_array_length(value_json) = 0`,
    ];
  },
  sortOrderSql: (key, direction) => (direction === "desc" ? sql`${key} desc NULLS LAST` : sql`${key} asc NULLS FIRST`),
});

export const fieldSqlParts = dialectStatements<FieldSqlParts>({
  sqlite: sqliteFieldParts,
  postgres: postgresFieldParts,
});
