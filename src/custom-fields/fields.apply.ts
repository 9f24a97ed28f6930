import { and, eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { validationFailed, type FieldError } from "../lib/errors";
import { definitionsOf, storedValuesOf, writeStoredValue } from "./fields.statements";
import { fieldValues, type FieldType } from "./fields.table";
import {
  checkFieldValue,
  isEmptyFieldValue,
  readFieldValue,
  type FieldDef,
  type FieldEntity,
  type StoredValue,
} from "./fields.values";

export {
  fieldFilterSql,
  fieldSortOrderSql,
  fieldSortSql,
  parseFieldFilters,
  type FieldFilter,
} from "./fields.filter";
export type { FieldEntity };
export type FieldChange = { key: string; from: unknown; to: unknown };

export const fieldDefinitions = async (db: Queryable, workspaceId: string, entity: FieldEntity): Promise<FieldDef[]> =>
  await definitionsOf(db, workspaceId, entity);

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Merges `fields` into a record's stored values: null, "" or [] clears a key. Every key is checked
 * before anything is written; unknown, archived or invalid keys answer 422 at body.fields.<key>.
 * Returns only the keys whose value changed.
 */
export async function applyFieldWrite(
  tx: Tx,
  ctx: RequestContext,
  entity: FieldEntity,
  recordId: string,
  fields: Record<string, unknown>,
): Promise<FieldChange[]> {
  return (await applyFieldWriteWithValues(tx, ctx, entity, recordId, fields)).changes;
}

/**
 * applyFieldWrite that also gives the record's values after the write (as fieldValuesOf would read
 * them), so a presenter called right after needs no query. `values` is null when `fields` is empty
 * (nothing was read).
 */
export async function applyFieldWriteWithValues(
  tx: Tx,
  ctx: RequestContext,
  entity: FieldEntity,
  recordId: string,
  fields: Record<string, unknown>,
): Promise<{ changes: FieldChange[]; values: Record<string, unknown> | null }> {
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
    throw validationFailed([{ location: "body.fields", message: "fields is an object of custom field values by key" }]);
  }
  const keys = Object.keys(fields);
  if (keys.length === 0) return { changes: [], values: null };
  const ordered = await fieldDefinitions(tx, ctx.workspaceId, entity);
  const defs = new Map(ordered.map((d) => [d.key, d]));
  const errors: FieldError[] = [];
  const planned: Array<{ def: FieldDef; stored: StoredValue | null }> = [];
  for (const key of keys) {
    const location = `body.fields.${key}`;
    const def = defs.get(key);
    if (!def) {
      errors.push({ location, message: `no ${entity} field has the key ${key.slice(0, 60)}` });
      continue;
    }
    if (def.archived) {
      errors.push({ location, message: `the field ${key} is archived and refuses changes` });
      continue;
    }
    const value = fields[key];
    if (isEmptyFieldValue(value)) {
      planned.push({ def, stored: null });
      continue;
    }
    const checked = await checkFieldValue(
      tx,
      ctx.workspaceId,
      def,
      typeof value === "string" && def.type === "text" ? value.trim() : value,
    );
    if (!checked.ok) errors.push({ location, message: checked.message });
    else planned.push({ def, stored: checked.stored });
  }
  if (errors.length) throw validationFailed(errors);

  const current = (await fieldValuesOf(tx, entity, [recordId])).get(recordId) ?? {};
  const after: Record<string, unknown> = { ...current };
  const changes: FieldChange[] = [];
  for (const { def, stored } of planned) {
    const from = current[def.key] ?? null;
    const to = stored ? readFieldValue(def.type as FieldType, stored) : null;
    if (sameValue(from, to)) continue;
    await writeStoredValue(tx, ctx.workspaceId, entity, recordId, def.id, stored);
    if (to === null) delete after[def.key];
    else after[def.key] = to;
    changes.push({ key: def.key, from, to });
  }
  const values: Record<string, unknown> = {};
  for (const def of ordered) if (Object.hasOwn(after, def.key)) values[def.key] = after[def.key];
  return { changes, values };
}

/** Each record's values by field key (only keys with a value), keys in field order. */
export async function fieldValuesOf(
  db: Queryable,
  entity: FieldEntity,
  recordIds: string[],
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  if (recordIds.length === 0) return out;
  for (const id of recordIds) out.set(id, {});
  for (const row of await storedValuesOf(db, entity, [...out.keys()]))
    out.get(row.recordId)![row.key] = readFieldValue(row.type, row);
  return out;
}

/**
 * The keys of required_on_solve ticket fields that would still be empty after `incoming`
 * (a write's `fields`, merged like applyFieldWrite) on the ticket (null for a new ticket).
 */
export async function missingRequiredOnSolve(
  db: Queryable,
  workspaceId: string,
  ticketId: string | null,
  incoming?: Record<string, unknown>,
): Promise<string[]> {
  const required = (await fieldDefinitions(db, workspaceId, "ticket")).filter((d) => d.requiredOnSolve && !d.archived);
  if (required.length === 0) return [];
  const stored = ticketId ? ((await fieldValuesOf(db, "ticket", [ticketId])).get(ticketId) ?? {}) : {};
  return required
    .filter((d) => {
      const value = incoming && Object.hasOwn(incoming, d.key) ? incoming[d.key] : stored[d.key];
      return isEmptyFieldValue(value);
    })
    .map((d) => d.key);
}

/** Deletes every value of a record (the record is being deleted). */
export async function clearFieldValues(tx: Tx, entity: FieldEntity, recordId: string): Promise<void> {
  await tx.delete(fieldValues).where(and(eq(fieldValues.entity, entity), eq(fieldValues.recordId, recordId)));
}
