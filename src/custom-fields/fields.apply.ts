import { and, asc, eq, inArray } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { validationFailed, type FieldError } from "../http/errors";
import { customFields, fieldValues, type FieldType } from "./fields.table";
import { checkFieldValue, isEmptyFieldValue, readFieldValue, type FieldDef, type StoredValue } from "./fields.values";

export { fieldFilterSql, fieldSortSql, parseFieldFilters, registerFieldsDatabase, type FieldFilter } from "./fields.filter";
export type FieldEntity = "ticket" | "contact" | "company";
export type FieldChange = { key: string; from: unknown; to: unknown };

export function fieldDefinitions(db: Queryable, workspaceId: string, entity: FieldEntity): FieldDef[] {
  return db
    .select()
    .from(customFields)
    .where(and(eq(customFields.workspaceId, workspaceId), eq(customFields.entity, entity)))
    .orderBy(asc(customFields.position), asc(customFields.createdAt))
    .all();
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Merges `fields` into a record's stored values: null, "" or [] clears a key. Every key is checked
 * before anything is written; unknown, archived or invalid keys answer 422 at body.fields.<key>.
 * Returns only the keys whose value changed.
 */
export function applyFieldWrite(tx: Tx, ctx: RequestContext, entity: FieldEntity, recordId: string, fields: Record<string, unknown>): FieldChange[] {
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
    throw validationFailed([{ location: "body.fields", message: "fields is an object of custom field values by key" }]);
  }
  const keys = Object.keys(fields);
  if (keys.length === 0) return [];
  const defs = new Map(fieldDefinitions(tx, ctx.workspaceId, entity).map((d) => [d.key, d]));
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
    const checked = checkFieldValue(tx, ctx.workspaceId, def, typeof value === "string" && def.type === "text" ? value.trim() : value);
    if (!checked.ok) errors.push({ location, message: checked.message });
    else planned.push({ def, stored: checked.stored });
  }
  if (errors.length) throw validationFailed(errors);

  const current = fieldValuesOf(tx, entity, [recordId]).get(recordId) ?? {};
  const changes: FieldChange[] = [];
  for (const { def, stored } of planned) {
    const from = current[def.key] ?? null;
    const to = stored ? readFieldValue(def.type as FieldType, stored) : null;
    if (sameValue(from, to)) continue;
    const where = and(eq(fieldValues.entity, entity), eq(fieldValues.recordId, recordId), eq(fieldValues.fieldId, def.id));
    if (stored === null) tx.delete(fieldValues).where(where).run();
    else {
      tx.insert(fieldValues)
        .values({ workspaceId: ctx.workspaceId, entity, recordId, fieldId: def.id, ...stored })
        .onConflictDoUpdate({ target: [fieldValues.entity, fieldValues.recordId, fieldValues.fieldId], set: stored })
        .run();
    }
    changes.push({ key: def.key, from, to });
  }
  return changes;
}

/** Each record's values by field key (only keys with a value), keys in field order. */
export function fieldValuesOf(db: Queryable, entity: FieldEntity, recordIds: string[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const id of recordIds) out.set(id, {});
  const unique = [...new Set(recordIds)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = db
      .select({
        recordId: fieldValues.recordId,
        key: customFields.key,
        type: customFields.type,
        valueText: fieldValues.valueText,
        valueNum: fieldValues.valueNum,
        valueJson: fieldValues.valueJson,
      })
      .from(fieldValues)
      .innerJoin(customFields, eq(customFields.id, fieldValues.fieldId))
      .where(and(eq(fieldValues.entity, entity), inArray(fieldValues.recordId, unique.slice(i, i + 500))))
      .orderBy(asc(customFields.position), asc(customFields.createdAt))
      .all();
    for (const row of rows) out.get(row.recordId)![row.key] = readFieldValue(row.type, row);
  }
  return out;
}

/**
 * The keys of required_on_solve ticket fields that would still be empty after `incoming`
 * (a write's `fields`, merged like applyFieldWrite) on the ticket (null for a new ticket).
 */
export function missingRequiredOnSolve(db: Queryable, workspaceId: string, ticketId: string | null, incoming?: Record<string, unknown>): string[] {
  const required = fieldDefinitions(db, workspaceId, "ticket").filter((d) => d.requiredOnSolve && !d.archived);
  if (required.length === 0) return [];
  const stored = ticketId ? (fieldValuesOf(db, "ticket", [ticketId]).get(ticketId) ?? {}) : {};
  return required
    .filter((d) => {
      const value = incoming && Object.hasOwn(incoming, d.key) ? incoming[d.key] : stored[d.key];
      return isEmptyFieldValue(value);
    })
    .map((d) => d.key);
}

/** Deletes every value of a record (the record is being deleted). */
export function clearFieldValues(tx: Tx, entity: FieldEntity, recordId: string): void {
  tx.delete(fieldValues).where(and(eq(fieldValues.entity, entity), eq(fieldValues.recordId, recordId))).run();
}
