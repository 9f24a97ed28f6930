import { first, one } from "../db/store";
import { and, asc, eq, or, sql } from "drizzle-orm";
import { actorUserId, roleAtLeast, type RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import { checkAutomation, runActions, type AutomationAction } from "../automations/automations.public";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import { appendEvent } from "../events/append";
import { ticketLabelChoices } from "../labels/labels.public";
import type { Clock } from "../lib/clock";
import { DeskError, forbidden, invalidAt, notFound, validationFailed, type FieldError } from "../lib/errors";
import { newId } from "../lib/ids";
import type { Deps } from "../deps";
import { getTicket, presentTickets, userRefsOf, type TicketJson } from "../tickets/tickets.public";
import { workspaceRefOf } from "../workspaces/workspaces.public";
import { macroCreated, macroDeleted, macroUpdated } from "./macros.events";
import { checkPlaceholders, fillPlaceholders, type PlaceholderValues } from "./macros.placeholders";
import type { CreateMacroInput, UpdateMacroInput } from "./macros.schemas";
import { macroStatements } from "./macros.statements";
import { macros } from "./macros.table";

type StoreDeps = { db: Db; clock: Clock };
export type MacroRow = typeof macros.$inferSelect;

export const presentMacro = (row: MacroRow) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  shared: row.shared,
  actions: row.actions.map(({ tag_id: _id, ...a }) => a),
  position: row.position,
  usage_count: row.usageCount,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/** Shared macros, and the caller's own personal ones (a key's are its creator's). */
const usableBy = (ctx: RequestContext) => {
  const me = actorUserId(ctx);
  return me ? or(eq(macros.shared, true), eq(macros.ownerId, me)) : eq(macros.shared, true);
};

export async function listMacros(db: Queryable, ctx: RequestContext) {
  return (
    await db
      .select()
      .from(macros)
      .where(and(eq(macros.workspaceId, ctx.workspaceId), usableBy(ctx)))
      .orderBy(asc(macros.position), macroStatements(db).textAscending(macros.name), asc(macros.id))
  ).map(presentMacro);
}

/** Another person's personal macro answers 404 like another workspace's. */
export async function findMacro(db: Queryable, ctx: RequestContext, id: string): Promise<MacroRow> {
  const row = first(
    await db
      .select()
      .from(macros)
      .where(and(eq(macros.workspaceId, ctx.workspaceId), eq(macros.id, id), usableBy(ctx)))
      .limit(1),
  );
  if (!row) throw notFound("Macro");
  return row;
}

/** Shared macros are workspace settings: admins, owners and keys (already bounded by settings:write). */
function assertMayShare(ctx: RequestContext) {
  if (!roleAtLeast(ctx.role, "admin")) throw forbidden("Only admins change shared macros; agents keep personal ones.");
}

/**
 * The automation checks (members, teams, fields, sanitized HTML), plus what a person's one click
 * must not guess at: a label that is not a live ticket label, and a placeholder that does not exist.
 * Every problem is answered at once, located at its index.
 */
async function checkActions(tx: Tx, ctx: RequestContext, actions: AutomationAction[]): Promise<AutomationAction[]> {
  const errors: FieldError[] = [];
  const choices = await ticketLabelChoices(tx, ctx.workspaceId);
  const live = new Set([...choices.type, ...choices.other].map((n) => n.toLocaleLowerCase("en-US")));
  actions.forEach((action, i) => {
    const at = `body.actions.${i}.value`;
    if ((action.type === "add_tag" || action.type === "remove_tag") && action.value.trim() !== "") {
      if (!live.has(action.value.trim().toLocaleLowerCase("en-US")))
        errors.push({ location: at, message: "no live ticket label has this name (unknown or archived)" });
    }
    if (action.type === "send_reply" || action.type === "add_note") checkPlaceholders(action.value, at, errors);
  });
  let checked: AutomationAction[] = actions;
  try {
    checked = (await checkAutomation(tx, ctx, { actions })).actions ?? actions;
  } catch (error) {
    if (!(error instanceof DeskError) || error.status !== 422) throw error;
    for (const e of error.errors ?? []) if (!errors.some((x) => x.location === e.location)) errors.push(e);
  }
  if (errors.length) throw validationFailed(errors);
  return checked;
}

const auditData = (row: MacroRow) => ({ name: row.name, shared: row.shared, actions: row.actions.length });

export async function createMacro(ctx: RequestContext, input: CreateMacroInput, deps: StoreDeps): Promise<MacroRow> {
  const shared = input.shared ?? false;
  if (shared) assertMayShare(ctx);
  const owner = actorUserId(ctx);
  if (!shared && !owner) throw invalidAt("body.shared", "a key without a creator makes shared macros only");
  return await transact(deps.db, async (tx) => {
    const actions = await checkActions(tx, ctx, input.actions);
    const position =
      input.position ??
      first(
        await tx
          .select({ next: sql<number>`coalesce(max(${macros.position}) + 1, 0)` })
          .from(macros)
          .where(eq(macros.workspaceId, ctx.workspaceId))
          .limit(1),
      )?.next ??
      0;
    const now = deps.clock.now().toISOString();
    const row = one(
      await tx
        .insert(macros)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          name: input.name,
          description: input.description ?? "",
          shared,
          ownerId: owner,
          actions,
          position,
          usageCount: 0,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await appendEvent(tx, macroCreated, { workspaceId: ctx.workspaceId, data: { macro: presentMacro(row) } });
    await recordAudit(tx, ctx, {
      action: "macro.created",
      entityType: "macro",
      entityId: row.id,
      data: auditData(row),
    });
    return row;
  });
}

export async function updateMacro(
  ctx: RequestContext,
  id: string,
  input: UpdateMacroInput,
  deps: StoreDeps,
): Promise<MacroRow> {
  return await transact(deps.db, async (tx) => {
    const existing = await findMacro(tx, ctx, id);
    if (existing.shared || input.shared === true) assertMayShare(ctx);
    const patch: Partial<MacroRow> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description;
    if (input.position !== undefined) patch.position = input.position;
    if (input.actions !== undefined) patch.actions = await checkActions(tx, ctx, input.actions);
    if (input.shared !== undefined && input.shared !== existing.shared) {
      patch.shared = input.shared;
      // A shared macro made personal becomes the one who made it so.
      if (!input.shared) {
        const owner = actorUserId(ctx);
        if (!owner) throw invalidAt("body.shared", "a key without a creator makes shared macros only");
        patch.ownerId = owner;
      }
    }
    const row = one(
      await tx
        .update(macros)
        .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
        .where(eq(macros.id, id))
        .returning(),
    );
    await appendEvent(tx, macroUpdated, { workspaceId: ctx.workspaceId, data: { macro: presentMacro(row) } });
    await recordAudit(tx, ctx, {
      action: "macro.updated",
      entityType: "macro",
      entityId: id,
      data: { ...auditData(row), changed: Object.keys(input) },
    });
    return row;
  });
}

export async function deleteMacro(ctx: RequestContext, id: string, deps: StoreDeps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const row = await findMacro(tx, ctx, id);
    if (row.shared) assertMayShare(ctx);
    await tx.delete(macros).where(eq(macros.id, id));
    await appendEvent(tx, macroDeleted, { workspaceId: ctx.workspaceId, data: { macro_id: id } });
    await recordAudit(tx, ctx, { action: "macro.deleted", entityType: "macro", entityId: id, data: auditData(row) });
  });
}

async function placeholderValues(db: Queryable, ctx: RequestContext, ticket: TicketJson): Promise<PlaceholderValues> {
  const me = actorUserId(ctx);
  const agent = me ? (await userRefsOf(db, [me])).get(me) : undefined;
  return {
    contact: ticket.contact ? { name: ticket.contact.name, email: ticket.contact.email } : null,
    ticket: { number: ticket.number, subject: ticket.subject },
    agent: agent ? { name: agent.name, email: agent.email } : null,
    workspace: (await workspaceRefOf(db, ctx.workspaceId)) ?? null,
  };
}

/**
 * Applies a macro to a ticket as the caller (their permissions, visibility and name on every
 * activity and message), in one transaction: the ticket changes as one update, then notes and
 * replies with their placeholders filled. A placeholder without a value for this ticket refuses
 * the whole macro (422) before anything is written, as the composer refuses to send one.
 */
export async function applyMacro(
  ctx: RequestContext,
  ticketRef: string,
  macroId: string,
  deps: Deps,
): Promise<TicketJson> {
  return await transact(deps.db, async (tx) => {
    const macro = await findMacro(tx, ctx, macroId);
    const ticket = (await presentTickets(tx, [await getTicket(tx, ctx, ticketRef)]))[0]!;
    const values = await placeholderValues(tx, ctx, ticket);
    const errors: FieldError[] = [];
    macro.actions.forEach((action, i) => {
      if (action.type !== "send_reply" && action.type !== "add_note") return;
      const { empty } = fillPlaceholders(action.value, values);
      if (empty.length)
        errors.push({
          location: `path.macro_id`,
          message: `action ${i} (${action.type}): ${empty.join(", ")} has no value on this ticket`,
        });
    });
    if (errors.length) throw validationFailed(errors, "The macro needs values this ticket does not have.");
    await runActions(
      tx,
      deps,
      { id: macro.id, name: macro.name, conditions: [], actions: macro.actions, allowCustomerReplyOnAiDecision: false },
      { id: ticket.id, workspaceId: ctx.workspaceId },
      undefined,
      { ctx, messageBody: (html) => fillPlaceholders(html, values).html },
    );
    await tx
      .update(macros)
      .set({ usageCount: sql`${macros.usageCount} + 1` })
      .where(eq(macros.id, macro.id));
    return (await presentTickets(tx, [await getTicket(tx, ctx, ticket.id)]))[0]!;
  });
}
