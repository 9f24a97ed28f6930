import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Db } from "../db/database";
import { transact } from "../db/tx";
import { enqueue } from "../jobs/enqueue";
import type { Clock } from "../lib/clock";
import { canonicalTimeZone, type Schedule } from "./business-hours.calc";
import { type BusinessHoursJson, businessHoursOf } from "./business-hours.read";
import type { PutBusinessHours } from "./business-hours.schemas";
import { recomputeSlaJob } from "./sla.jobs";
import { businessHours } from "./sla.table";

const sortedSchedule = (schedule: Schedule): Schedule =>
  Object.fromEntries(
    Object.entries(schedule).map(([day, ranges]) => [day, [...ranges].sort((a, b) => a.start.localeCompare(b.start))]),
  ) as Schedule;

/** Replaces the workspace's business hours (audit-logged); SLA clocks counting open time are recomputed. */
export async function putBusinessHours(
  ctx: RequestContext,
  input: PutBusinessHours,
  deps: { db: Db; clock: Clock },
): Promise<BusinessHoursJson> {
  const value: BusinessHoursJson = {
    enabled: input.enabled,
    timezone: canonicalTimeZone(input.timezone) ?? input.timezone,
    schedule: sortedSchedule(input.schedule),
    holidays: [...input.holidays].sort((a, b) => a.date.localeCompare(b.date)),
  };
  return await transact(deps.db, async (tx) => {
    const before = await businessHoursOf(tx, ctx.workspaceId);
    const row = { workspaceId: ctx.workspaceId, ...value, updatedAt: deps.clock.now().toISOString() };
    await tx
      .insert(businessHours)
      .values(row)
      .onConflictDoUpdate({ target: businessHours.workspaceId, set: { ...value, updatedAt: row.updatedAt } });
    await recordAudit(tx, ctx, {
      action: "business_hours.updated",
      entityType: "business_hours",
      entityId: null,
      data: { before, after: value },
    });
    await enqueue(
      tx,
      recomputeSlaJob,
      { workspace_id: ctx.workspaceId, after_id: "" },
      { workspaceId: ctx.workspaceId },
    );
    return value;
  });
}
