import type { RequestContext } from "../auth/context";
import {
  applyFieldWrite,
  createField,
  fieldDefinitions,
  updateField,
  type FieldDef,
  type FieldEntity,
} from "../custom-fields/custom-fields.public";
import type { Tx } from "../db/database";
import type { Deps } from "../deps";
import { DeskError } from "../lib/errors";
import { slugify } from "../lib/slug";
import { mappingOf, saveMapping, type MappingScope } from "./imports.mappings";
import type { SourceField, SourceFieldValue } from "./imports.source";

/** A record's values written at most this many (Desk's own limit of fields per entity). */
const MAX_VALUES = 100;
const MAX_OPTIONS = 200;

/** What a field's mapping remembers: the vendor's option value → Desk's option id. */
type FieldData = { options: Record<string, string> };

/**
 * Writes a record's vendor field values, creating a Desk field for each vendor field met for the
 * first time. The field is remembered by the vendor's id (an import mapping), so a re-run reuses
 * it; a Desk field already holding the same key and type is reused too. Answers one message per
 * value that could not be written (the import's errors), never throws for a value.
 */
export async function writeSourceFields(
  tx: Tx,
  ctx: RequestContext,
  deps: Deps,
  scope: MappingScope,
  target: { entity: FieldEntity; recordId: string },
  values: SourceFieldValue[] | undefined,
): Promise<string[]> {
  if (!values?.length) return [];
  const problems: string[] = [];
  const write: Record<string, unknown> = {};
  for (const { field, value } of values.slice(0, MAX_VALUES)) {
    try {
      const { def, data } = await ensureField(tx, ctx, deps, scope, target.entity, field);
      const converted = convert(def, data, value);
      if (converted === undefined) problems.push(`${field.name.slice(0, 100)}: the value fits no ${def.type} value`);
      else write[def.key] = converted;
    } catch (error) {
      problems.push(`${field.name.slice(0, 100)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  try {
    await applyFieldWrite(tx, ctx, target.entity, target.recordId, write);
  } catch (error) {
    if (!(error instanceof DeskError)) throw error;
    // One refused value must not lose the others: each is written on its own.
    for (const [key, value] of Object.entries(write)) {
      try {
        await applyFieldWrite(tx, ctx, target.entity, target.recordId, { [key]: value });
      } catch (single) {
        if (!(single instanceof DeskError)) throw single;
        problems.push(`${key}: ${(single.errors ?? []).map((e) => e.message).join(" ") || single.detail}`);
      }
    }
  }
  return problems;
}

async function ensureField(
  tx: Tx,
  ctx: RequestContext,
  deps: Deps,
  scope: MappingScope,
  entity: FieldEntity,
  field: SourceField,
): Promise<{ def: FieldDef; data: FieldData }> {
  const mappingId = `${entity}:${field.sourceId}`;
  const mapping = await mappingOf(tx, scope, "field", mappingId);
  const defs = await fieldDefinitions(tx, scope.workspaceId, entity);
  const base = keyOf(field);
  let def =
    defs.find((d) => d.id === mapping?.deskId) ??
    defs.find(
      (d) => d.type === field.type && (d.key === base || d.key === `${base}_${slugify(field.sourceId, "_", 12)}`),
    );
  const data: FieldData = { options: { ...((mapping?.data as FieldData | null)?.options ?? {}) } };
  const choices = field.type === "select" || field.type === "multi_select";
  let changed = !mapping || mapping.deskId !== def?.id;
  if (!def) {
    const key = defs.some((d) => d.key === base) ? `${base}_${slugify(field.sourceId, "_", 12)}`.slice(0, 40) : base;
    def = await createField(ctx, { entity, name: field.name.slice(0, 100) || key, type: field.type, key }, deps);
  }
  if (choices) {
    const options = def.options.map((o) => ({ id: o.id, label: o.label, color: o.color }));
    const taken = new Set(options.map((o) => o.id));
    let added = false;
    for (const option of field.options.slice(0, MAX_OPTIONS)) {
      if (data.options[option.value] && taken.has(data.options[option.value]!)) continue;
      changed = true;
      const same = options.find((o) => o.label === option.label);
      if (same) {
        data.options[option.value] = same.id;
        continue;
      }
      if (options.length >= MAX_OPTIONS) break;
      let id = slugify(option.label || option.value, "_", 50) || `option_${options.length + 1}`;
      if (taken.has(id)) id = `${id}_${options.length + 1}`;
      taken.add(id);
      options.push({ id, label: (option.label || option.value).slice(0, 200), color: "gray" });
      data.options[option.value] = id;
      added = true;
    }
    if (added) def = await updateField(ctx, def.id, { options }, deps);
  }
  // Written only when something is new: the mapping is read for every value of every record.
  if (changed)
    await saveMapping(tx, scope, { kind: "field", sourceId: mappingId, deskId: def.id, sourceUpdatedAt: null, data });
  return { def, data };
}

/** A key from the vendor's name (Desk keys start with a letter); the vendor's id when the name gives none. */
function keyOf(field: SourceField): string {
  const fromName = slugify(field.name, "_", 28).replace(/^[^a-z]+/, "");
  return fromName || `field_${slugify(field.sourceId, "_", 20)}`.replace(/_+$/, "");
}

/** The vendor's value as Desk's API takes it for the field; null clears; undefined: it fits nowhere. */
function convert(def: FieldDef, data: FieldData, value: unknown): unknown {
  if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0))
    return null;
  switch (def.type) {
    case "text":
      return (Array.isArray(value) ? value.join(", ") : String(value))
        .replace(/[\r\n]+/g, " ")
        .trim()
        .slice(0, 1000);
    case "long_text":
      return String(value).slice(0, 10_000);
    case "number": {
      const n = typeof value === "number" ? value : Number(String(value).trim());
      return Number.isFinite(n) ? n : undefined;
    }
    case "checkbox":
      if (typeof value === "boolean") return value;
      if (value === 1 || value === "1" || value === "true") return true;
      if (value === 0 || value === "0" || value === "false") return false;
      return undefined;
    case "date": {
      const day = String(value).slice(0, 10);
      return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined;
    }
    case "select":
      return data.options[String(value)] ?? undefined;
    case "multi_select": {
      const list = (Array.isArray(value) ? value : [value]).map((v) => data.options[String(v)]);
      return list.every((v) => v !== undefined) ? list : undefined;
    }
    default:
      return undefined;
  }
}
