import { execute, first, one } from "../db/store";
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import { customFieldCreated, customFieldDeleted, customFieldUpdated } from "./fields.events";
import { appendEvent } from "../events/append";
import { conflict, invalidAt, notFound, validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { slugify } from "../lib/slug";
import type { FieldEntity } from "./fields.apply";
import { customFields, fieldValues, type FieldOption, type FieldType } from "./fields.table";
import type { FieldDef } from "./fields.values";
import { fieldSqlParts } from "./fields.statements";
import type { Clock } from "../lib/clock";

type Deps = { db: Db; clock: Clock };
export const MAX_FIELDS_PER_ENTITY = 100;
export const MAX_OPTIONS = 200;
const KEY_RE = /^[a-z][a-z0-9_]{0,39}$/;
const OPTION_ID_RE = /^[a-z0-9][a-z0-9_-]{0,59}$/;

export type OptionInput = { id?: string; label: string; color?: string };
export type FieldInput = {
  entity: FieldEntity;
  name: string;
  type: FieldType;
  key?: string;
  options?: OptionInput[];
  required_on_solve?: boolean;
  description?: string;
  position?: number;
};
export type FieldPatch = {
  name?: string;
  options?: OptionInput[];
  required_on_solve?: boolean;
  description?: string;
  position?: number;
  archived?: boolean;
};

export const presentField = (row: FieldDef) => ({
  id: row.id,
  entity: row.entity,
  key: row.key,
  name: row.name,
  type: row.type,
  // Keys in the order they are written: PostgreSQL's jsonb keeps an object's keys in its own order.
  options: (row.options ?? []).map((o) => ({ id: o.id, label: o.label, color: o.color })),
  required_on_solve: row.requiredOnSolve,
  description: row.description,
  position: row.position,
  archived: row.archived,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export async function findField(db: Queryable, workspaceId: string, id: string): Promise<FieldDef | undefined> {
  return first(
    await db
      .select()
      .from(customFields)
      .where(and(eq(customFields.workspaceId, workspaceId), eq(customFields.id, id)))
      .limit(1),
  );
}

const ENTITY_ORDER = sql`CASE ${customFields.entity} WHEN 'ticket' THEN 0 WHEN 'contact' THEN 1 ELSE 2 END`;

export async function listFields(
  db: Queryable,
  ctx: RequestContext,
  query: { entity?: FieldEntity; archived?: "true" | "false" | "any" },
) {
  const conditions: SQL[] = [eq(customFields.workspaceId, ctx.workspaceId)];
  if (query.entity) conditions.push(eq(customFields.entity, query.entity));
  if (query.archived === "true") conditions.push(eq(customFields.archived, true));
  if (query.archived === "false") conditions.push(eq(customFields.archived, false));
  return (
    await db
      .select()
      .from(customFields)
      .where(and(...conditions))
      .orderBy(ENTITY_ORDER, asc(customFields.position), asc(customFields.createdAt))
  ).map(presentField);
}

/** Options with ids (default: slug of the label) and colours (default gray); ids are unique. */
function normalizeOptions(type: FieldType, options: OptionInput[] | undefined): FieldOption[] {
  const choice = type === "select" || type === "multi_select";
  if (!choice) {
    if (options?.length) throw invalidAt("body.options", `a ${type} field has no options`);
    return [];
  }
  const list = options ?? [];
  if (list.length > MAX_OPTIONS) throw invalidAt("body.options", `a field has at most ${MAX_OPTIONS} options`);
  const seen = new Set<string>();
  return list.map((option, index) => {
    const id = option.id ?? slugify(option.label, "_", 60);
    if (!OPTION_ID_RE.test(id))
      throw invalidAt(
        `body.options.${index}.id`,
        "an option id is 1 to 60 lowercase letters, digits, - or _, and a label gives one only when it holds letters or digits",
      );
    if (seen.has(id)) throw invalidAt(`body.options.${index}.id`, `the option id ${id} appears twice`);
    seen.add(id);
    return { id, label: option.label, color: option.color ?? "gray" };
  });
}

async function countFields(tx: Tx, workspaceId: string, entity: FieldEntity) {
  return first(
    await tx
      .select({ n: sql<number>`count(*)`, next: sql<number>`coalesce(max(${customFields.position}) + 1, 0)` })
      .from(customFields)
      .where(and(eq(customFields.workspaceId, workspaceId), eq(customFields.entity, entity)))
      .limit(1),
  )!;
}

export async function createField(ctx: RequestContext, input: FieldInput, deps: Deps): Promise<FieldDef> {
  const key = input.key ?? slugify(input.name, "_", 40).replace(/^[^a-z]+/, "");
  if (!KEY_RE.test(key)) {
    throw invalidAt(
      input.key !== undefined ? "body.key" : "body.name",
      input.key !== undefined ? "a key matches ^[a-z][a-z0-9_]{0,39}$" : "the name gives no usable key; pass key",
    );
  }
  if (input.required_on_solve && input.entity !== "ticket")
    throw invalidAt("body.required_on_solve", "only ticket fields are required on solve");
  const options = normalizeOptions(input.type, input.options);
  return await transact(deps.db, async (tx) => {
    const taken = first(
      await tx
        .select({ id: customFields.id })
        .from(customFields)
        .where(
          and(
            eq(customFields.workspaceId, ctx.workspaceId),
            eq(customFields.entity, input.entity),
            eq(customFields.key, key),
          ),
        )
        .limit(1),
    );
    if (taken) {
      if (input.key !== undefined) throw conflict(`A ${input.entity} field with the key ${key} already exists.`);
      throw invalidAt("body.key", `the key ${key} from the name is taken; pass another key`);
    }
    const counted = await countFields(tx, ctx.workspaceId, input.entity);
    if (counted.n >= MAX_FIELDS_PER_ENTITY)
      throw invalidAt("body.entity", `at most ${MAX_FIELDS_PER_ENTITY} fields per entity`);
    const now = deps.clock.now().toISOString();
    const row = one(
      await tx
        .insert(customFields)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          entity: input.entity,
          key,
          name: input.name,
          type: input.type,
          options,
          requiredOnSolve: input.required_on_solve ?? false,
          description: input.description ?? "",
          position: input.position ?? counted.next,
          archived: false,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await appendEvent(tx, customFieldCreated, {
      workspaceId: ctx.workspaceId,
      data: { custom_field: presentField(row) },
    });
    await recordAudit(tx, ctx, {
      action: "custom_field.created",
      entityType: "custom_field",
      entityId: row.id,
      data: { entity: row.entity, key, type: row.type },
    });
    return row;
  });
}

/** Key, entity and type never change; a removed option is cleared from every stored value. */
export async function updateField(ctx: RequestContext, id: string, input: FieldPatch, deps: Deps): Promise<FieldDef> {
  return await transact(deps.db, async (tx) => {
    const before = await findField(tx, ctx.workspaceId, id);
    if (!before) throw notFound("Custom field");
    if (input.required_on_solve && before.entity !== "ticket")
      throw invalidAt("body.required_on_solve", "only ticket fields are required on solve");
    const patch: Partial<FieldDef> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description;
    if (input.position !== undefined) patch.position = input.position;
    if (input.archived !== undefined) patch.archived = input.archived;
    if (input.required_on_solve !== undefined) patch.requiredOnSolve = input.required_on_solve;
    if (input.options !== undefined) {
      patch.options = normalizeOptions(before.type as FieldType, input.options);
      const kept = new Set(patch.options.map((o) => o.id));
      const gone = before.options.filter((o) => !kept.has(o.id)).map((o) => o.id);
      if (gone.length) await clearOptions(tx, before, gone);
    }
    const row = one(
      await tx
        .update(customFields)
        .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
        .where(eq(customFields.id, id))
        .returning(),
    );
    await appendEvent(tx, customFieldUpdated, {
      workspaceId: ctx.workspaceId,
      data: { custom_field: presentField(row) },
    });
    await recordAudit(tx, ctx, {
      action: "custom_field.updated",
      entityType: "custom_field",
      entityId: id,
      data: { changes: Object.keys(input) },
    });
    return row;
  });
}

async function clearOptions(tx: Tx, def: FieldDef, gone: string[]) {
  if (def.type === "select") {
    await tx.delete(fieldValues).where(and(eq(fieldValues.fieldId, def.id), inArray(fieldValues.valueText, gone)));
    return;
  }
  for (const statement of fieldSqlParts(tx).removeListOptionsSql(def.id, gone)) await execute(tx, statement);
}

export async function deleteField(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const row = await findField(tx, ctx.workspaceId, id);
    if (!row) throw notFound("Custom field");
    await tx.delete(fieldValues).where(eq(fieldValues.fieldId, id));
    await tx.delete(customFields).where(eq(customFields.id, id));
    await appendEvent(tx, customFieldDeleted, {
      workspaceId: ctx.workspaceId,
      data: { custom_field_id: id, entity: row.entity, key: row.key },
    });
    await recordAudit(tx, ctx, {
      action: "custom_field.deleted",
      entityType: "custom_field",
      entityId: id,
      data: { entity: row.entity, key: row.key },
    });
  });
}

export async function reorderFields(
  ctx: RequestContext,
  entity: FieldEntity,
  ids: string[],
  deps: Deps,
): Promise<void> {
  await transact(deps.db, async (tx) => {
    const rows = ids.length
      ? await tx
          .select()
          .from(customFields)
          .where(
            and(
              eq(customFields.workspaceId, ctx.workspaceId),
              eq(customFields.entity, entity),
              inArray(customFields.id, ids),
            ),
          )
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const unknown = ids.map((id, i) => ({ id, i })).filter(({ id }) => !byId.has(id));
    if (unknown.length)
      throw validationFailed(
        unknown.map(({ i }) => ({
          location: `body.ids.${i}`,
          message: `no ${entity} field of this workspace has this id`,
        })),
      );
    if (new Set(ids).size !== ids.length) throw invalidAt("body.ids", "each id appears once");
    const now = deps.clock.now().toISOString();
    for (const [position, id] of ids.entries()) {
      if (byId.get(id)!.position === position) continue;
      const row = one(
        await tx.update(customFields).set({ position, updatedAt: now }).where(eq(customFields.id, id)).returning(),
      );
      await appendEvent(tx, customFieldUpdated, {
        workspaceId: ctx.workspaceId,
        data: { custom_field: presentField(row) },
      });
    }
    await recordAudit(tx, ctx, { action: "custom_field.reordered", entityType: "custom_field", data: { entity, ids } });
  });
}
