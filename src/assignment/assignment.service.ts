import { first } from "../db/store";
import { and, eq } from "drizzle-orm";
import { systemContext, type RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import { reactionStateChanged } from "../events/consumers";
import type { Deps } from "../deps";
import { invalidAt } from "../lib/errors";
import { findMailbox } from "../mailboxes/mailboxes.public";
import { assignableMembers, memberRoleOf, openTicketsOf, presenceOf } from "../members/members.public";
import { memberIdsOf, teamOfWorkspace } from "../teams/teams.public";
import { firstMessageOf, ticketOfWorkspace, updateTicket } from "../tickets/tickets.public";
import { findWorkspace, updateWorkspace } from "../workspaces/workspaces.public";
import {
  type AssignMode,
  type AssignmentRule,
  ASSIGN_MODES,
  assignmentPointers,
  assignmentSettings,
} from "./assignment.table";

export type Assignment = { mode: AssignMode; rules: AssignmentRule[]; auto_away_minutes: number };

const modeOf = (value: unknown): AssignMode =>
  (ASSIGN_MODES as readonly unknown[]).includes(value) ? (value as AssignMode) : "none";

async function storedSettings(db: Queryable, workspaceId: string) {
  return first(
    await db.select().from(assignmentSettings).where(eq(assignmentSettings.workspaceId, workspaceId)).limit(1),
  );
}

export async function getAssignment(db: Db, workspaceId: string): Promise<Assignment> {
  const stored = await storedSettings(db, workspaceId);
  return {
    mode: modeOf((await findWorkspace(db, workspaceId))?.settings?.auto_assign),
    rules: stored?.rules ?? [],
    auto_away_minutes: stored?.autoAwayMinutes ?? 0,
  };
}

/** The workspace's auto-away cutoff at `now` (null when auto-away is off): what members' presence reads. */
export async function awayCutoffAt(db: Queryable, workspaceId: string, now: Date): Promise<string | null> {
  const minutes = (await storedSettings(db, workspaceId))?.autoAwayMinutes ?? 0;
  return minutes > 0 ? new Date(now.getTime() - minutes * 60_000).toISOString() : null;
}

async function checkRules(tx: Queryable, workspaceId: string, rules: AssignmentRule[]): Promise<void> {
  const seen = new Set<string>();
  for (const [i, rule] of rules.entries()) {
    const key = `${rule.target_type}:${rule.target_id}`;
    if (seen.has(key)) throw invalidAt(`body.rules.${i}`, `A second rule for the same ${rule.target_type}.`);
    seen.add(key);
    const exists =
      rule.target_type === "team"
        ? await teamOfWorkspace(tx, workspaceId, rule.target_id)
        : await findMailbox(tx, workspaceId, rule.target_id);
    if (!exists) throw invalidAt(`body.rules.${i}.target_id`, `No such ${rule.target_type} in this workspace.`);
  }
}

/**
 * Changes the workspace mode (stored as `settings.auto_assign`, so `workspace.updated` follows),
 * replaces the whole rule list and/or sets auto-away; audit-logged as `assignment.updated`.
 */
export async function updateAssignment(
  ctx: RequestContext,
  patch: { mode?: AssignMode; rules?: AssignmentRule[]; auto_away_minutes?: number },
  deps: Pick<Deps, "db" | "clock">,
): Promise<Assignment> {
  return await transact(deps.db, async (tx) => {
    if (patch.rules) await checkRules(tx, ctx.workspaceId, patch.rules);
    const before = await getAssignment(deps.db, ctx.workspaceId);
    if (patch.mode !== undefined && patch.mode !== before.mode)
      await updateWorkspace(ctx, { settings: { auto_assign: patch.mode } }, deps);
    if (patch.rules !== undefined || patch.auto_away_minutes !== undefined) {
      const autoAwayMinutes = patch.auto_away_minutes ?? before.auto_away_minutes;
      const row = {
        workspaceId: ctx.workspaceId,
        rules: patch.rules ?? before.rules,
        autoAwayMinutes,
        updatedAt: deps.clock.now().toISOString(),
        // A new auto-away length starts the presence job's announcements afresh.
        ...(autoAwayMinutes !== before.auto_away_minutes ? { awayAnnouncedUntil: null } : {}),
      };
      await tx
        .insert(assignmentSettings)
        .values(row)
        .onConflictDoUpdate({ target: assignmentSettings.workspaceId, set: row });
      // Rules append no event of their own: the on-create consumer's cached answer must go.
      reactionStateChanged(deps.db, ctx.workspaceId);
    }
    const after = await getAssignment(deps.db, ctx.workspaceId);
    if (JSON.stringify(after) !== JSON.stringify(before))
      await recordAudit(tx, ctx, {
        action: "assignment.updated",
        entityType: "assignment",
        entityId: ctx.workspaceId,
        data: { from: before, to: after },
      });
    return after;
  });
}

/** Whether any ticket of the workspace may be auto-assigned: its mode, or a team's or mailbox's rule, is not `none`. */
export async function autoAssignsIn(db: Db, workspaceId: string): Promise<boolean> {
  const settings = await getAssignment(db, workspaceId);
  return settings.mode !== "none" || settings.rules.some((rule) => rule.mode !== "none");
}

type TicketTarget = { workspaceId: string; teamId: string | null; mailboxId: string | null };

/** Which mode applies to a ticket, and whose turn order: its team's rule, else its mailbox's, else the workspace's. */
async function modeFor(db: Db, ticket: TicketTarget): Promise<{ mode: AssignMode; scope: string }> {
  const settings = await getAssignment(db, ticket.workspaceId);
  const rule = (type: "team" | "mailbox", id: string | null) =>
    id ? settings.rules.find((r) => r.target_type === type && r.target_id === id) : undefined;
  const team = rule("team", ticket.teamId);
  if (team) return { mode: team.mode, scope: `team:${team.target_id}` };
  const mailbox = rule("mailbox", ticket.mailboxId);
  if (mailbox) return { mode: mailbox.mode, scope: `mailbox:${mailbox.target_id}` };
  return { mode: settings.mode, scope: "workspace" };
}

/**
 * Who gets a ticket now, or null: among members who are not viewers, online (presence, so
 * auto-away counts) and under their `max_open_tickets`; a ticket of a team goes to that team's
 * members. Round robin takes the next member after the last one assigned in this scope (by user
 * id, wrapping); load balanced takes the fewest open tickets, ties broken in the same turn order.
 * The pointer is stored in the caller's transaction.
 */
export async function pickAssignee(
  tx: Tx,
  deps: Pick<Deps, "db" | "clock" | "ports">,
  ticket: TicketTarget,
): Promise<string | null> {
  const { mode, scope } = await modeFor(deps.db, ticket);
  if (mode === "none") return null;
  const cutoff = await awayCutoffAt(tx, ticket.workspaceId, deps.clock.now());
  let pool = (await assignableMembers(tx, ticket.workspaceId)).filter((m) => presenceOf(m, cutoff) === "online");
  if (ticket.teamId) {
    const team = new Set((await memberIdsOf(tx, [ticket.teamId])).get(ticket.teamId) ?? []);
    pool = pool.filter((m) => team.has(m.userId));
  }
  const open = await openTicketsOf(
    deps.ports,
    tx,
    ticket.workspaceId,
    pool.map((m) => m.userId),
  );
  pool = pool.filter((m) => m.maxOpenTickets === null || (open.get(m.userId) ?? 0) < m.maxOpenTickets);
  if (!pool.length) return null;
  const pointer = first(
    await tx
      .select({ last: assignmentPointers.lastUserId })
      .from(assignmentPointers)
      .where(and(eq(assignmentPointers.workspaceId, ticket.workspaceId), eq(assignmentPointers.scope, scope)))
      .limit(1),
  )?.last;
  // Turn order: the members after the pointer first, then from the start (pool is sorted by user id).
  const next = pointer ? pool.findIndex((m) => m.userId > pointer) : 0;
  const turn = next <= 0 ? pool : [...pool.slice(next), ...pool.slice(0, next)];
  let chosen = turn[0]!;
  if (mode === "load_balanced")
    for (const m of turn) if ((open.get(m.userId) ?? 0) < (open.get(chosen.userId) ?? 0)) chosen = m;
  const now = deps.clock.now().toISOString();
  await tx
    .insert(assignmentPointers)
    .values({ workspaceId: ticket.workspaceId, scope, lastUserId: chosen.userId, updatedAt: now })
    .onConflictDoUpdate({
      target: [assignmentPointers.workspaceId, assignmentPointers.scope],
      set: { lastUserId: chosen.userId, updatedAt: now },
    });
  return chosen.userId;
}

/**
 * Assigns an unassigned, live, unsolved, non-spam ticket by the workspace's rules (the consumer of
 * `ticket.created` calls it; so does triage when `assign_after_triage` is on). The change goes
 * through the ticket write API as the system (an `assigned` activity, `ticket.updated`, and the
 * assignee's `assigned` notification). Answers the assignee, or null when nobody was chosen.
 */
export async function autoAssignTicket(deps: Deps, workspaceId: string, ticketId: string): Promise<string | null> {
  return await transact(deps.db, async (tx) => {
    const ticket = await ticketOfWorkspace(tx, workspaceId, ticketId);
    if (
      !ticket ||
      ticket.assigneeId ||
      ticket.deletedAt ||
      ticket.mergedIntoId ||
      ticket.spam ||
      ticket.status === "solved" ||
      ticket.status === "closed"
    )
      return null;
    const userId = await pickAssignee(tx, deps, ticket);
    if (!userId) return null;
    await updateTicket(systemContext(workspaceId, "auto-assign"), ticket.id, { assignee_id: userId }, deps);
    return userId;
  });
}

/** `settings.assign_on_reply`: on unless set to false. */
export const assignOnReplyOf = async (db: Db, workspaceId: string): Promise<boolean> =>
  (await findWorkspace(db, workspaceId))?.settings?.assign_on_reply !== false;

/**
 * Assigns a live, unassigned, non-spam ticket to the member who replied, when they may be assigned
 * (a member who is not a viewer). The change is theirs: the `assigned` activity names them, so
 * nobody is notified of a ticket they took themselves.
 */
export async function takeTicketOnReply(
  deps: Deps,
  workspaceId: string,
  ticketId: string,
  userId: string,
  reply: { id: string; createdAt: string },
): Promise<boolean> {
  return await transact(deps.db, async (tx) => {
    const ticket = await ticketOfWorkspace(tx, workspaceId, ticketId);
    if (!ticket || ticket.assigneeId || ticket.deletedAt || ticket.mergedIntoId || ticket.spam) return false;
    // Written with the ticket: whoever created it set (or left) its assignee on purpose.
    if (ticket.createdAt === reply.createdAt && (await firstMessageOf(tx, ticket.id))?.id === reply.id) return false;
    const role = await memberRoleOf(tx, workspaceId, userId);
    if (!role || role === "viewer") return false;
    const ctx: RequestContext = {
      workspaceId,
      actor: { type: "user", userId, sessionId: null },
      role,
      scopes: null,
      // The reply itself showed they see the ticket; a private team's membership is not re-checked here.
      visibleTeams: "all",
      requestId: `assign-on-reply:${ticketId}`,
      ip: null,
    };
    await updateTicket(ctx, ticket.id, { assignee_id: userId }, deps, { enforceRequired: false });
    return true;
  });
}
