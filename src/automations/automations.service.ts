import { first, one } from "../db/store";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import { appendEvent } from "../events/append";
import type { Clock } from "../lib/clock";
import { notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { normalizeLabelName } from "../labels/labels.public";
import { ticketOfWorkspace } from "../tickets/tickets.public";
import { automationCreated, automationDeleted, automationUpdated } from "./automations.events";
import { automationStatements } from "./automations.statements";
import { checkAiReplyConsent, checkAutomation } from "./automations.rules";
import type { CreateAutomationInput, UpdateAutomationInput } from "./automations.schemas";
import { automationRuns, automations, automationTimeMarks } from "./automations.table";
import { TIME_RUN_PREFIX } from "./automations.time";

type Deps = { db: Db; clock: Clock };
export type AutomationRow = typeof automations.$inferSelect;

export const presentAutomation = (row: AutomationRow) => ({
  id: row.id,
  name: row.name,
  trigger: row.trigger,
  conditions: row.conditions.map(({ tag_id: _id, ...c }) => c),
  actions: row.actions.map(({ tag_id: _id, ...a }) => a),
  enabled: row.enabled,
  allow_customer_reply_on_ai_decision: row.allowCustomerReplyOnAiDecision,
  position: row.position,
  run_count: row.runCount,
  last_run_at: row.lastRunAt,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});
export type AutomationJson = ReturnType<typeof presentAutomation>;

export async function listAutomations(db: Queryable, workspaceId: string): Promise<AutomationJson[]> {
  return (
    await db
      .select()
      .from(automations)
      .where(eq(automations.workspaceId, workspaceId))
      .orderBy(asc(automations.position), asc(automations.createdAt), asc(automations.id))
  ).map(presentAutomation);
}

async function findAutomation(db: Queryable, workspaceId: string, id: string): Promise<AutomationRow> {
  const row = first(
    await db
      .select()
      .from(automations)
      .where(and(eq(automations.workspaceId, workspaceId), eq(automations.id, id)))
      .limit(1),
  );
  if (!row) throw notFound("Automation");
  return row;
}

export const getAutomation = async (db: Queryable, ctx: RequestContext, id: string): Promise<AutomationJson> =>
  presentAutomation(await findAutomation(db, ctx.workspaceId, id));

/** A run's ticket number for the link, when the reader may see the ticket (a private team's only for its members). */
async function visibleNumber(db: Queryable, ctx: RequestContext, ticketId: string): Promise<number | null> {
  const ticket = await ticketOfWorkspace(db, ctx.workspaceId, ticketId);
  if (!ticket || ticket.deletedAt) return null;
  const visible = !ticket.teamId || ctx.visibleTeams === "all" || ctx.visibleTeams.includes(ticket.teamId);
  return visible ? ticket.number : null;
}

/** An automation's recent runs, newest first (what each action did, or why the chain stopped). */
export async function listAutomationRuns(db: Queryable, ctx: RequestContext, id: string, limit = 50) {
  await findAutomation(db, ctx.workspaceId, id);
  return await Promise.all(
    (
      await db
        .select()
        .from(automationRuns)
        .where(eq(automationRuns.automationId, id))
        .orderBy(desc(automationRuns.createdAt), desc(automationRuns.id))
        .limit(limit)
    ).map(async (row) => ({
      id: row.id,
      automation_id: row.automationId,
      event_id: row.eventId,
      ticket_id: row.ticketId,
      ticket_number: await visibleNumber(db, ctx, row.ticketId),
      outcome: row.outcome,
      depth: row.depth,
      notes: row.notes,
      trigger: row.eventId.startsWith(TIME_RUN_PREFIX) ? ("time" as const) : ("event" as const),
      matched: row.matched,
      created_at: row.createdAt,
    })),
  );
}

const auditData = (row: AutomationRow) => ({ name: row.name, trigger: row.trigger, enabled: row.enabled });

export async function createAutomation(
  ctx: RequestContext,
  input: CreateAutomationInput,
  deps: Deps,
): Promise<AutomationRow> {
  return await transact(deps.db, async (tx) => {
    const checked = await checkAutomation(tx, ctx, input);
    const allowCustomerReplyOnAiDecision = input.allow_customer_reply_on_ai_decision ?? false;
    checkAiReplyConsent({
      conditions: checked.conditions ?? [],
      actions: checked.actions ?? [],
      allowCustomerReplyOnAiDecision,
    });
    const position =
      input.position ??
      first(
        await tx
          .select({ next: sql<number>`coalesce(max(${automations.position}) + 1, 0)` })
          .from(automations)
          .where(eq(automations.workspaceId, ctx.workspaceId))
          .limit(1),
      )?.next ??
      0;
    const now = deps.clock.now().toISOString();
    const row = one(
      await tx
        .insert(automations)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          name: input.name,
          trigger: input.trigger,
          conditions: checked.conditions ?? [],
          actions: checked.actions ?? [],
          enabled: input.enabled ?? true,
          allowCustomerReplyOnAiDecision,
          position,
          runCount: 0,
          lastRunAt: null,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await appendEvent(tx, automationCreated, {
      workspaceId: ctx.workspaceId,
      data: { automation: presentAutomation(row) },
    });
    await recordAudit(tx, ctx, {
      action: "automation.created",
      entityType: "automation",
      entityId: row.id,
      data: auditData(row),
    });
    return row;
  });
}

export async function updateAutomation(
  ctx: RequestContext,
  id: string,
  input: UpdateAutomationInput,
  deps: Deps,
): Promise<AutomationRow> {
  return await transact(deps.db, async (tx) => {
    const existing = await findAutomation(tx, ctx.workspaceId, id);
    // A trigger changed alone is judged with the stored conditions: time conditions belong to time rules only.
    const retrigger = input.trigger !== undefined && input.trigger !== existing.trigger;
    const checked = await checkAutomation(tx, ctx, {
      conditions: input.conditions ?? (retrigger ? existing.conditions : undefined),
      actions: input.actions,
      trigger: input.trigger ?? existing.trigger,
    });
    checkAiReplyConsent({
      conditions: checked.conditions ?? existing.conditions,
      actions: checked.actions ?? existing.actions,
      allowCustomerReplyOnAiDecision:
        input.allow_customer_reply_on_ai_decision ?? existing.allowCustomerReplyOnAiDecision,
    });
    const patch: Partial<AutomationRow> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.trigger !== undefined) patch.trigger = input.trigger;
    if (checked.conditions !== undefined) patch.conditions = checked.conditions;
    if (checked.actions !== undefined) patch.actions = checked.actions;
    if (input.enabled !== undefined) patch.enabled = input.enabled;
    if (input.allow_customer_reply_on_ai_decision !== undefined)
      patch.allowCustomerReplyOnAiDecision = input.allow_customer_reply_on_ai_decision;
    if (input.position !== undefined) patch.position = input.position;
    const row = one(
      await tx
        .update(automations)
        .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
        .where(eq(automations.id, id))
        .returning(),
    );
    await appendEvent(tx, automationUpdated, {
      workspaceId: ctx.workspaceId,
      data: { automation: presentAutomation(row) },
    });
    await recordAudit(tx, ctx, {
      action: "automation.updated",
      entityType: "automation",
      entityId: id,
      data: { ...auditData(row), changed: Object.keys(input) },
    });
    return row;
  });
}

export async function deleteAutomation(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const row = await findAutomation(tx, ctx.workspaceId, id);
    await tx.delete(automations).where(eq(automations.id, id));
    await tx.delete(automationRuns).where(eq(automationRuns.automationId, id));
    await tx.delete(automationTimeMarks).where(eq(automationTimeMarks.automationId, id));
    await appendEvent(tx, automationDeleted, { workspaceId: ctx.workspaceId, data: { automation_id: id } });
    await recordAudit(tx, ctx, {
      action: "automation.deleted",
      entityType: "automation",
      entityId: id,
      data: auditData(row),
    });
  });
}

/**
 * Labels rules 1–2: a label renamed (or merged into another) is renamed in every automation naming
 * it: `tag` conditions and add_tag/remove_tag actions holding its id (`ids`), and those saved before
 * ids were kept that name it (compared for equality, or a `contains` whose whole value is its name),
 * which then gain the id. Each rewritten automation gets its own automation.updated event, in the
 * label change's transaction.
 */
export async function renameTagInAutomations(
  tx: Tx,
  workspaceId: string,
  fromKey: string,
  toName: string,
  now: Date,
  ids?: { fromId: string; toId: string },
): Promise<void> {
  const rows = await tx
    .select()
    .from(automations)
    .where(
      and(
        eq(automations.workspaceId, workspaceId),
        automationStatements(tx).mayNameTagsSql(automations.conditions, automations.actions),
      ),
    );
  const named = (value: unknown) =>
    typeof value === "string" && normalizeLabelName(value).toLocaleLowerCase("en-US") === fromKey;
  const follows = (item: { value: unknown; tag_id?: string }) =>
    item.tag_id !== undefined ? item.tag_id === ids?.fromId : named(item.value);
  let changed = false;
  const moved = <T extends { value: unknown; tag_id?: string }>(item: T): T => {
    const next = { ...item, value: toName, ...(ids ? { tag_id: ids.toId } : {}) };
    if (next.value !== item.value || next.tag_id !== item.tag_id) changed = true;
    return next;
  };
  for (const row of rows) {
    changed = false;
    const conditions = row.conditions.map((c) => (c.field === "tag" && follows(c) ? moved(c) : c));
    const actions = row.actions.map((a) =>
      (a.type === "add_tag" || a.type === "remove_tag") && follows(a) ? moved(a) : a,
    );
    if (!changed) continue;
    const updated = one(
      await tx
        .update(automations)
        .set({ conditions, actions, updatedAt: now.toISOString() })
        .where(eq(automations.id, row.id))
        .returning(),
    );
    await appendEvent(tx, automationUpdated, { workspaceId, data: { automation: presentAutomation(updated) } });
  }
}
