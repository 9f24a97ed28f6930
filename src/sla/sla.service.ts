import { first, one } from "../db/store";
import { and, eq, sql } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import { appendEvent } from "../events/append";
import { enqueue } from "../jobs/enqueue";
import type { Clock } from "../lib/clock";
import { notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { slaPolicyCreated, slaPolicyDeleted, slaPolicyUpdated } from "./sla.events";
import { recomputeSlaJob } from "./sla.jobs";
import type { CreateSlaPolicy, UpdateSlaPolicy } from "./sla.schemas";
import { policiesOf } from "./sla.track";
import { slaPolicies, type SlaPolicyRow } from "./sla.table";

type Deps = { db: Db; clock: Clock };

export const presentSlaPolicy = (row: SlaPolicyRow) => ({
  id: row.id,
  name: row.name,
  priority: row.priority,
  first_response_minutes: row.firstResponseMinutes,
  resolution_minutes: row.resolutionMinutes,
  business_hours: row.businessHours,
  enabled: row.enabled,
  position: row.position,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export const listSlaPolicies = async (db: Queryable, ctx: RequestContext) =>
  (await policiesOf(db, ctx.workspaceId)).map(presentSlaPolicy);

export async function findSlaPolicy(db: Queryable, workspaceId: string, id: string): Promise<SlaPolicyRow | undefined> {
  return first(
    await db
      .select()
      .from(slaPolicies)
      .where(and(eq(slaPolicies.workspaceId, workspaceId), eq(slaPolicies.id, id)))
      .limit(1),
  );
}

/**
 * Puts a policy at `position` among the workspace's policies and numbers them all 0, 1, 2… in
 * order, each moved one with its `sla_policy.updated` (the moved policy's own event is the caller's).
 */
async function placeAt(
  tx: Tx,
  ctx: RequestContext,
  row: SlaPolicyRow,
  position: number,
  now: string,
): Promise<SlaPolicyRow> {
  const others = (await policiesOf(tx, ctx.workspaceId)).filter((p) => p.id !== row.id);
  const at = Math.min(position, others.length);
  const order = [...others.slice(0, at), row, ...others.slice(at)];
  let placed = row;
  for (const [index, policy] of order.entries()) {
    if (policy.position === index) continue;
    const moved = one(
      await tx
        .update(slaPolicies)
        .set({ position: index, updatedAt: now })
        .where(eq(slaPolicies.id, policy.id))
        .returning(),
    );
    if (policy.id === row.id) placed = moved;
    else
      await appendEvent(tx, slaPolicyUpdated, {
        workspaceId: ctx.workspaceId,
        data: { sla_policy: presentSlaPolicy(moved) },
      });
  }
  return placed;
}

/** The unsolved tickets' clocks follow the new policies (a job, in batches). */
const recompute = async (tx: Tx, workspaceId: string) =>
  await enqueue(tx, recomputeSlaJob, { workspace_id: workspaceId, after_id: "" }, { workspaceId });

export async function createSlaPolicy(ctx: RequestContext, input: CreateSlaPolicy, deps: Deps): Promise<SlaPolicyRow> {
  return await transact(deps.db, async (tx) => {
    const position =
      first(
        await tx
          .select({ next: sql<number>`coalesce(max(${slaPolicies.position}) + 1, 0)` })
          .from(slaPolicies)
          .where(eq(slaPolicies.workspaceId, ctx.workspaceId))
          .limit(1),
      )?.next ?? 0;
    const now = deps.clock.now().toISOString();
    const inserted = one(
      await tx
        .insert(slaPolicies)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          name: input.name,
          priority: input.priority,
          firstResponseMinutes: input.first_response_minutes,
          resolutionMinutes: input.resolution_minutes,
          businessHours: input.business_hours,
          enabled: input.enabled,
          position,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    const row = input.position === undefined ? inserted : await placeAt(tx, ctx, inserted, input.position, now);
    const sla_policy = presentSlaPolicy(row);
    await appendEvent(tx, slaPolicyCreated, { workspaceId: ctx.workspaceId, data: { sla_policy } });
    await recordAudit(tx, ctx, {
      action: "sla_policy.created",
      entityType: "sla_policy",
      entityId: row.id,
      data: sla_policy,
    });
    await recompute(tx, ctx.workspaceId);
    return row;
  });
}

export async function updateSlaPolicy(
  ctx: RequestContext,
  id: string,
  input: UpdateSlaPolicy,
  deps: Deps,
): Promise<SlaPolicyRow> {
  return await transact(deps.db, async (tx) => {
    const before = await findSlaPolicy(tx, ctx.workspaceId, id);
    if (!before) throw notFound("SLA policy");
    const patch: Partial<SlaPolicyRow> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.priority !== undefined) patch.priority = input.priority;
    if (input.first_response_minutes !== undefined) patch.firstResponseMinutes = input.first_response_minutes;
    if (input.resolution_minutes !== undefined) patch.resolutionMinutes = input.resolution_minutes;
    if (input.business_hours !== undefined) patch.businessHours = input.business_hours;
    if (input.enabled !== undefined) patch.enabled = input.enabled;
    const now = deps.clock.now().toISOString();
    const updated = one(
      await tx
        .update(slaPolicies)
        .set({ ...patch, updatedAt: now })
        .where(eq(slaPolicies.id, id))
        .returning(),
    )!;
    const row =
      input.position === undefined || input.position === before.position
        ? updated
        : await placeAt(tx, ctx, updated, input.position, now);
    const sla_policy = presentSlaPolicy(row);
    await appendEvent(tx, slaPolicyUpdated, { workspaceId: ctx.workspaceId, data: { sla_policy } });
    await recordAudit(tx, ctx, {
      action: "sla_policy.updated",
      entityType: "sla_policy",
      entityId: id,
      data: { before: presentSlaPolicy(before), after: sla_policy },
    });
    await recompute(tx, ctx.workspaceId);
    return row;
  });
}

export async function deleteSlaPolicy(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const before = await findSlaPolicy(tx, ctx.workspaceId, id);
    if (!before) throw notFound("SLA policy");
    await tx.delete(slaPolicies).where(eq(slaPolicies.id, id));
    await appendEvent(tx, slaPolicyDeleted, { workspaceId: ctx.workspaceId, data: { sla_policy_id: id } });
    await recordAudit(tx, ctx, {
      action: "sla_policy.deleted",
      entityType: "sla_policy",
      entityId: id,
      data: presentSlaPolicy(before),
    });
    await recompute(tx, ctx.workspaceId);
  });
}
