import type { Queryable } from "../db/database";
import { inListSql, listParam } from "../db/dialect";
import { preparedFor } from "../db/prepared";
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
