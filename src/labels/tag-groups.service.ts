import { first, one } from "../db/store";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Db, Queryable } from "../db/database";
import { transact } from "../db/tx";
import { tagGroupCreated, tagGroupDeleted, tagGroupUpdated, tagUpdated } from "./labels.events";
import { appendEvent } from "../events/append";
import { invalidAt, notFound, validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { presentTagGroup, type TagGroupRow } from "./labels.present";
import { MAX_GROUPS_PER_WORKSPACE } from "./labels.rules";
import { presentTagWithUsage } from "./labels.service";
import { tagGroups, tags } from "./labels.table";
import type { Clock } from "../lib/clock";

type Deps = { db: Db; clock: Clock };
export type TagGroupInput = { name?: string; color?: string | null; exclusive?: boolean; position?: number };

async function tagCounts(db: Queryable, groupIds: string[]): Promise<Map<string, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .select({ groupId: tags.groupId, n: sql<number>`count(*)` })
    .from(tags)
    .where(inArray(tags.groupId, groupIds))
    .groupBy(tags.groupId);
  return new Map(rows.map((r) => [r.groupId!, r.n]));
}

export const presentGroupWithCount = async (db: Queryable, row: TagGroupRow) =>
  presentTagGroup(row, (await tagCounts(db, [row.id])).get(row.id) ?? 0);

export async function findTagGroup(db: Queryable, workspaceId: string, id: string): Promise<TagGroupRow | undefined> {
  return first(
    await db
      .select()
      .from(tagGroups)
      .where(and(eq(tagGroups.workspaceId, workspaceId), eq(tagGroups.id, id)))
      .limit(1),
  );
}

export async function listTagGroups(db: Queryable, ctx: RequestContext) {
  const rows = await db
    .select()
    .from(tagGroups)
    .where(eq(tagGroups.workspaceId, ctx.workspaceId))
    .orderBy(asc(tagGroups.position), asc(tagGroups.id));
  const counts = await tagCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => presentTagGroup(row, counts.get(row.id) ?? 0));
}

export async function createTagGroup(
  ctx: RequestContext,
  input: TagGroupInput & { name: string },
  deps: Deps,
): Promise<TagGroupRow> {
  return await transact(deps.db, async (tx) => {
    const existing = first(
      await tx
        .select({ n: sql<number>`count(*)`, next: sql<number>`coalesce(max(${tagGroups.position}) + 1, 0)` })
        .from(tagGroups)
        .where(eq(tagGroups.workspaceId, ctx.workspaceId))
        .limit(1),
    )!;
    if (existing.n >= MAX_GROUPS_PER_WORKSPACE)
      throw invalidAt("body.name", `a workspace has at most ${MAX_GROUPS_PER_WORKSPACE} label groups`);
    const now = deps.clock.now().toISOString();
    const row = one(
      await tx
        .insert(tagGroups)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          name: input.name,
          color: input.color ?? null,
          exclusive: input.exclusive ?? false,
          position: input.position ?? existing.next,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await appendEvent(tx, tagGroupCreated, {
      workspaceId: ctx.workspaceId,
      data: { tag_group: presentTagGroup(row, 0) },
    });
    await recordAudit(tx, ctx, {
      action: "tag_group.created",
      entityType: "tag_group",
      entityId: row.id,
      data: { name: row.name },
    });
    return row;
  });
}

/** Turning a group exclusive leaves records as they are until their labels next change. */
export async function updateTagGroup(
  ctx: RequestContext,
  id: string,
  input: TagGroupInput,
  deps: Deps,
): Promise<TagGroupRow> {
  return await transact(deps.db, async (tx) => {
    if (!(await findTagGroup(tx, ctx.workspaceId, id))) throw notFound("Tag group");
    const patch: Partial<TagGroupRow> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.color !== undefined) patch.color = input.color;
    if (input.exclusive !== undefined) patch.exclusive = input.exclusive;
    if (input.position !== undefined) patch.position = input.position;
    const row = one(
      await tx
        .update(tagGroups)
        .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
        .where(eq(tagGroups.id, id))
        .returning(),
    );
    await appendEvent(tx, tagGroupUpdated, {
      workspaceId: ctx.workspaceId,
      data: { tag_group: await presentGroupWithCount(tx, row) },
    });
    await recordAudit(tx, ctx, {
      action: "tag_group.updated",
      entityType: "tag_group",
      entityId: id,
      data: { changes: Object.keys(input) },
    });
    return row;
  });
}

/** Deletes a group; its labels stay, ungrouped (each gets a tag.updated). */
export async function deleteTagGroup(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const group = await findTagGroup(tx, ctx.workspaceId, id);
    if (!group) throw notFound("Tag group");
    const now = deps.clock.now().toISOString();
    const freed = await tx
      .update(tags)
      .set({ groupId: null, updatedAt: now })
      .where(and(eq(tags.workspaceId, ctx.workspaceId), eq(tags.groupId, id)))
      .returning();
    await tx.delete(tagGroups).where(eq(tagGroups.id, id));
    for (const tag of freed)
      await appendEvent(tx, tagUpdated, {
        workspaceId: ctx.workspaceId,
        data: { tag: await presentTagWithUsage(tx, tag) },
      });
    await appendEvent(tx, tagGroupDeleted, { workspaceId: ctx.workspaceId, data: { tag_group_id: id } });
    await recordAudit(tx, ctx, {
      action: "tag_group.deleted",
      entityType: "tag_group",
      entityId: id,
      data: { name: group.name },
    });
  });
}

export async function reorderTagGroups(ctx: RequestContext, ids: string[], deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const rows = ids.length
      ? await tx
          .select()
          .from(tagGroups)
          .where(and(eq(tagGroups.workspaceId, ctx.workspaceId), inArray(tagGroups.id, ids)))
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const unknown = ids.map((id, i) => ({ id, i })).filter(({ id }) => !byId.has(id));
    if (unknown.length)
      throw validationFailed(
        unknown.map(({ i }) => ({
          location: `body.ids.${i}`,
          message: "no label group of this workspace has this id",
        })),
      );
    if (new Set(ids).size !== ids.length) throw invalidAt("body.ids", "each id appears once");
    const now = deps.clock.now().toISOString();
    for (const [position, id] of ids.entries()) {
      if (byId.get(id)!.position === position) continue;
      const row = one(
        await tx.update(tagGroups).set({ position, updatedAt: now }).where(eq(tagGroups.id, id)).returning(),
      );
      await appendEvent(tx, tagGroupUpdated, {
        workspaceId: ctx.workspaceId,
        data: { tag_group: await presentGroupWithCount(tx, row) },
      });
    }
    await recordAudit(tx, ctx, { action: "tag_group.reordered", entityType: "tag_group", data: { ids } });
  });
}
