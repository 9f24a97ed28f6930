import { execute, first, one } from "../db/store";
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import { tagDeleted, tagMerged, tagUpdated } from "./labels.events";
import { appendEvent } from "../events/append";
import { conflict, invalidAt, notFound, validationFailed } from "../lib/errors";
import { insertLabel, labelCount, type LabelKind } from "./labels.apply";
import { NO_USAGE, presentTag, type LabelUsage, type TagRow } from "./labels.present";
import { labelNameKey, labelNameProblem, MAX_LABELS_PER_WORKSPACE, normalizeLabelName } from "./labels.rules";
import { labelSqlParts } from "./labels.statements";
import { recordTags, tagGroups, tags } from "./labels.table";
import type { Clock } from "../lib/clock";

type Deps = { db: Db; clock: Clock };

/**
 * What other features do, in the same transaction, when a label's name changes (a rename, or a
 * merge into another label): views rewrite their `tag` filter. Passed in by the composition root
 * so labels, which views build on, never import them. `fromKey` is the old name's key.
 */
/**
 * `ids`: the label's id before and after (the same on a rename; the merge target's on a merge), for
 * what keeps labels by id (automations); views keep names only.
 */
export type TagRenamed = (
  tx: Tx,
  workspaceId: string,
  fromKey: string,
  toName: string,
  now: Date,
  ids?: { fromId: string; toId: string },
) => void | Promise<void>;
export type TagInput = {
  name?: string;
  color?: string;
  description?: string;
  group_id?: string | null;
  applies_to?: LabelKind[];
  position?: number;
  archived?: boolean;
};
export type TagListQuery = {
  q?: string;
  group_id?: string;
  archived?: "true" | "false" | "any";
  applies_to?: LabelKind;
};

export async function usageOf(db: Queryable, tagIds: string[]): Promise<Map<string, LabelUsage>> {
  const out = new Map<string, LabelUsage>();
  for (const id of tagIds) out.set(id, { ...NO_USAGE });
  for (let i = 0; i < tagIds.length; i += 500) {
    const rows = await db
      .select({ tagId: recordTags.tagId, kind: recordTags.kind, n: sql<number>`count(*)` })
      .from(recordTags)
      .where(inArray(recordTags.tagId, tagIds.slice(i, i + 500)))
      .groupBy(recordTags.tagId, recordTags.kind);
    for (const row of rows) out.get(row.tagId)![row.kind] = row.n;
  }
  return out;
}

export const presentTagWithUsage = async (db: Queryable, row: TagRow) =>
  presentTag(row, (await usageOf(db, [row.id])).get(row.id)!);

export async function findTag(db: Queryable, workspaceId: string, id: string): Promise<TagRow | undefined> {
  return first(
    await db
      .select()
      .from(tags)
      .where(and(eq(tags.workspaceId, workspaceId), eq(tags.id, id)))
      .limit(1),
  );
}

/** All labels matching the filters, ordered by group position, position, name (ungrouped first). */
export async function listTags(db: Queryable, ctx: RequestContext, query: TagListQuery) {
  const conditions: SQL[] = [eq(tags.workspaceId, ctx.workspaceId)];
  const parts = labelSqlParts(db);
  if (query.q) conditions.push(parts.keyContainsSql(tags.nameKey, labelNameKey(query.q)));
  if (query.group_id === "none") conditions.push(isNull(tags.groupId));
  else if (query.group_id) conditions.push(eq(tags.groupId, query.group_id));
  if (query.archived === "true") conditions.push(eq(tags.archived, true));
  if (query.archived === "false") conditions.push(eq(tags.archived, false));
  if (query.applies_to) conditions.push(parts.listHoldsSql(tags.appliesTo, query.applies_to));
  const rows = (
    await db
      .select({ tag: tags })
      .from(tags)
      .leftJoin(tagGroups, eq(tagGroups.id, tags.groupId))
      .where(and(...conditions))
      .orderBy(...parts.listOrderSql(tagGroups.position, tagGroups.id, tags.position, tags.nameKey))
  ).map((r) => r.tag);
  const usage = await usageOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => presentTag(row, usage.get(row.id)!));
}

function checkName(raw: string): string {
  const name = normalizeLabelName(raw);
  const problem = labelNameProblem(name);
  if (problem) throw invalidAt("body.name", problem);
  return name;
}

async function assertNameFree(tx: Tx, workspaceId: string, name: string, exceptId: string | null) {
  const taken = first(
    await tx
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.workspaceId, workspaceId), eq(tags.nameKey, labelNameKey(name))))
      .limit(1),
  );
  if (taken && taken.id !== exceptId) throw conflict(`A label named "${name}" already exists.`);
}

async function assertGroup(tx: Tx, workspaceId: string, groupId: string | null | undefined) {
  if (!groupId) return;
  const group = first(
    await tx
      .select({ id: tagGroups.id })
      .from(tagGroups)
      .where(and(eq(tagGroups.workspaceId, workspaceId), eq(tagGroups.id, groupId)))
      .limit(1),
  );
  if (!group) throw invalidAt("body.group_id", "no label group of this workspace has this id");
}

export async function createTag(ctx: RequestContext, input: TagInput & { name: string }, deps: Deps): Promise<TagRow> {
  const name = checkName(input.name);
  return await transact(deps.db, async (tx) => {
    await assertNameFree(tx, ctx.workspaceId, name, null);
    await assertGroup(tx, ctx.workspaceId, input.group_id);
    if ((await labelCount(tx, ctx.workspaceId)) >= MAX_LABELS_PER_WORKSPACE)
      throw invalidAt("body.name", `a workspace has at most ${MAX_LABELS_PER_WORKSPACE} labels`);
    const row = await insertLabel(tx, ctx.workspaceId, {
      name,
      color: input.color,
      description: input.description,
      groupId: input.group_id ?? null,
      appliesTo: input.applies_to ? [...new Set(input.applies_to)] : undefined,
      position: input.position,
    });
    await recordAudit(tx, ctx, { action: "tag.created", entityType: "tag", entityId: row.id, data: { name } });
    return row;
  });
}

const nextPosition = async (tx: Tx, workspaceId: string, groupId: string | null): Promise<number> =>
  first(
    await tx
      .select({ next: sql<number>`coalesce(max(${tags.position}) + 1, 0)` })
      .from(tags)
      .where(
        and(eq(tags.workspaceId, workspaceId), groupId === null ? isNull(tags.groupId) : eq(tags.groupId, groupId)),
      )
      .limit(1),
  )?.next ?? 0;

export async function updateTag(
  ctx: RequestContext,
  id: string,
  input: TagInput,
  deps: Deps,
  tagRenamed: TagRenamed,
): Promise<TagRow> {
  return await transact(deps.db, async (tx) => {
    const before = await findTag(tx, ctx.workspaceId, id);
    if (!before) throw notFound("Tag");
    const patch: Partial<TagRow> = {};
    if (input.name !== undefined) {
      const name = checkName(input.name);
      await assertNameFree(tx, ctx.workspaceId, name, id);
      patch.name = name;
      patch.nameKey = labelNameKey(name);
    }
    if (input.group_id !== undefined && input.group_id !== before.groupId) {
      await assertGroup(tx, ctx.workspaceId, input.group_id);
      patch.groupId = input.group_id;
      if (input.position === undefined) patch.position = await nextPosition(tx, ctx.workspaceId, input.group_id);
    }
    if (input.color !== undefined) patch.color = input.color;
    if (input.description !== undefined) patch.description = input.description;
    if (input.applies_to !== undefined) patch.appliesTo = [...new Set(input.applies_to)];
    if (input.position !== undefined) patch.position = input.position;
    if (input.archived !== undefined) patch.archived = input.archived;
    const row = one(
      await tx
        .update(tags)
        .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
        .where(eq(tags.id, id))
        .returning(),
    );
    if (patch.name !== undefined && patch.name !== before.name)
      await tagRenamed(tx, ctx.workspaceId, before.nameKey, row.name, deps.clock.now(), { fromId: id, toId: id });
    await appendEvent(tx, tagUpdated, {
      workspaceId: ctx.workspaceId,
      data: { tag: await presentTagWithUsage(tx, row) },
    });
    await recordAudit(tx, ctx, {
      action: "tag.updated",
      entityType: "tag",
      entityId: id,
      data: { changes: Object.keys(input) },
    });
    return row;
  });
}

/** Deletes a label and removes it from every record (records change without their own events). */
export async function deleteTag(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const row = await findTag(tx, ctx.workspaceId, id);
    if (!row) throw notFound("Tag");
    await tx.delete(recordTags).where(eq(recordTags.tagId, id));
    await tx.delete(tags).where(eq(tags.id, id));
    await appendEvent(tx, tagDeleted, { workspaceId: ctx.workspaceId, data: { tag_id: id } });
    await recordAudit(tx, ctx, { action: "tag.deleted", entityType: "tag", entityId: id, data: { name: row.name } });
  });
}

/**
 * Moves every record carrying `id` to `into` (an exclusive target group pushes the group's other
 * labels off those records), rewrites views naming the source, and deletes the source.
 */
export async function mergeTag(
  ctx: RequestContext,
  id: string,
  intoId: string,
  deps: Deps,
  tagRenamed: TagRenamed,
): Promise<TagRow> {
  return await transact(deps.db, async (tx) => {
    const source = await findTag(tx, ctx.workspaceId, id);
    if (!source) throw notFound("Tag");
    const target = await findTag(tx, ctx.workspaceId, intoId);
    if (!target) throw invalidAt("body.into", "no label of this workspace has this id");
    if (target.id === source.id) throw invalidAt("body.into", "a label cannot be merged into itself");
    const exclusive =
      target.groupId !== null &&
      (first(
        await tx
          .select({ exclusive: tagGroups.exclusive })
          .from(tagGroups)
          .where(eq(tagGroups.id, target.groupId))
          .limit(1),
      )?.exclusive ??
        false);
    if (exclusive) {
      await execute(
        tx,
        sql`DELETE FROM record_tags WHERE tag_id IN (SELECT id FROM tags WHERE group_id = ${target.groupId} AND id <> ${target.id} AND id <> ${source.id})
        AND (kind, record_id) IN (SELECT kind, record_id FROM record_tags WHERE tag_id = ${source.id})`,
      );
    }
    // A record holding both labels keeps one row (the SELECT's WHERE lets SQLite parse the ON CONFLICT).
    await execute(
      tx,
      sql`INSERT INTO record_tags (workspace_id, kind, record_id, tag_id, created_at)
      SELECT workspace_id, kind, record_id, ${target.id}, created_at FROM record_tags WHERE tag_id = ${source.id} ON CONFLICT DO NOTHING`,
    );
    await tx.delete(recordTags).where(eq(recordTags.tagId, source.id));
    await tx.delete(tags).where(eq(tags.id, source.id));
    await tagRenamed(tx, ctx.workspaceId, source.nameKey, target.name, deps.clock.now(), {
      fromId: source.id,
      toId: target.id,
    });
    await appendEvent(tx, tagMerged, { workspaceId: ctx.workspaceId, data: { tag_id: source.id, into: target.id } });
    await recordAudit(tx, ctx, {
      action: "tag.merged",
      entityType: "tag",
      entityId: source.id,
      data: { name: source.name, into: target.id, into_name: target.name },
    });
    return target;
  });
}

/** Each listed label's position becomes its index; labels not listed keep theirs. */
export async function reorderTags(ctx: RequestContext, ids: string[], deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const rows = ids.length
      ? await tx
          .select()
          .from(tags)
          .where(and(eq(tags.workspaceId, ctx.workspaceId), inArray(tags.id, ids)))
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const unknown = ids.map((id, i) => ({ id, i })).filter(({ id }) => !byId.has(id));
    if (unknown.length)
      throw validationFailed(
        unknown.map(({ i }) => ({ location: `body.ids.${i}`, message: "no label of this workspace has this id" })),
      );
    if (new Set(ids).size !== ids.length) throw invalidAt("body.ids", "each id appears once");
    const now = deps.clock.now().toISOString();
    for (const [position, id] of ids.entries()) {
      if (byId.get(id)!.position === position) continue;
      const row = one(await tx.update(tags).set({ position, updatedAt: now }).where(eq(tags.id, id)).returning());
      await appendEvent(tx, tagUpdated, {
        workspaceId: ctx.workspaceId,
        data: { tag: await presentTagWithUsage(tx, row) },
      });
    }
    await recordAudit(tx, ctx, { action: "tag.reordered", entityType: "tag", data: { ids } });
  });
}
