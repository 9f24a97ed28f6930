import { wakeSnoozedJob } from "./tickets.jobs";
import { eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { applyFieldWrite, missingRequiredOnSolve } from "../custom-fields/fields.apply";
import type { Queryable, Tx } from "../db/database";
import { DeskError, invalidAt } from "../lib/errors";
import { enqueue } from "../jobs/enqueue";
import { applyLabelWrite } from "../labels/labels.apply";
import type { TicketPatch } from "./tickets.schemas";
import { isAssignableMember, mailboxExists, teamRow } from "./tickets.statements";
import { recordActivity } from "./tickets.timeline";
import { tickets, type TicketRow, type TicketStatus } from "./tickets.table";

const SOLVED_STATES: TicketStatus[] = ["solved", "closed"];

/** An assignee must be a member of this workspace who is not a viewer. */
export function assertAssignable(db: Queryable, workspaceId: string, userId: string, location: string): void {
  if (!isAssignableMember(db, workspaceId, userId))
    throw invalidAt(location, "The assignee must be a member of this workspace who is not a viewer.");
}

export function assertTeam(db: Queryable, ctx: RequestContext, teamId: string, location: string): void {
  const row = teamRow(db, ctx.workspaceId, teamId);
  const visible = row && (!row.private || ctx.visibleTeams === "all" || ctx.visibleTeams.includes(row.id));
  if (!visible) throw invalidAt(location, "No such team in this workspace.");
}

export function assertMailbox(db: Queryable, workspaceId: string, mailboxId: string, location: string): void {
  if (!mailboxExists(db, workspaceId, mailboxId)) throw invalidAt(location, "No such mailbox in this workspace.");
}

/** 422 field_required when a required_on_solve field is still empty (values written earlier in this transaction count). */
export function assertSolvable(
  db: Queryable,
  workspaceId: string,
  ticketId: string,
  locationPrefix = "body.fields",
): void {
  const missing = missingRequiredOnSolve(db, workspaceId, ticketId);
  if (missing.length === 0) return;
  throw new DeskError(
    422,
    "field_required",
    `Fill in ${missing.join(", ")} before solving.`,
    missing.map((key) => ({
      location: `${locationPrefix}.${key}`,
      message: "This field is required to solve the ticket.",
    })),
  );
}

/** Suggestion keys removed when a person sets the field they suggest. */
const SUGGESTION_FOR: Partial<Record<keyof TicketPatch, string>> = {
  priority: "priority",
  severity: "severity",
  team_id: "team",
  spam: "spam",
  tags: "labels",
  add_tags: "labels",
  remove_tags: "labels",
};

export type PatchOutcome = { row: TicketRow; changes: string[]; assigneeChanged: boolean };

/**
 * Applies a PATCH to one ticket inside the caller's transaction: validates references, writes the
 * row, labels and custom fields, logs one activity per timeline change, schedules the snooze wake-up.
 * The caller emits `ticket.updated` (so a reply can fold its own changes into the same event).
 */
export function applyTicketPatch(
  tx: Tx,
  ctx: RequestContext,
  current: TicketRow,
  patch: TicketPatch,
  now: string,
  options: { enforceRequired: boolean },
): PatchOutcome {
  const set: Partial<typeof tickets.$inferInsert> = {};
  const changes: string[] = [];
  const timeline: Array<[string, Record<string, unknown>]> = [];

  if (patch.subject !== undefined && patch.subject !== current.subject) {
    set.subject = patch.subject;
    changes.push("subject");
  }
  if (patch.priority !== undefined && patch.priority !== current.priority) {
    set.priority = patch.priority;
    changes.push("priority");
    timeline.push(["priority_changed", { from: current.priority, to: patch.priority }]);
  }
  if (patch.severity !== undefined && patch.severity !== current.severity) {
    set.severity = patch.severity;
    changes.push("severity");
    timeline.push(["severity_changed", { from: current.severity, to: patch.severity }]);
  }
  let assigneeChanged = false;
  if (patch.assignee_id !== undefined && patch.assignee_id !== current.assigneeId) {
    if (patch.assignee_id !== null) assertAssignable(tx, ctx.workspaceId, patch.assignee_id, "body.assignee_id");
    set.assigneeId = patch.assignee_id;
    changes.push("assignee");
    assigneeChanged = true;
    timeline.push(["assigned", { from: current.assigneeId, to: patch.assignee_id }]);
  }
  if (patch.team_id !== undefined && patch.team_id !== current.teamId) {
    if (patch.team_id !== null) assertTeam(tx, ctx, patch.team_id, "body.team_id");
    set.teamId = patch.team_id;
    changes.push("team_id");
    timeline.push(["team_changed", { from: current.teamId, to: patch.team_id }]);
  }
  if (patch.spam !== undefined && patch.spam !== current.spam) {
    set.spam = patch.spam;
    changes.push("spam");
  }
  if (patch.snoozed_until !== undefined && patch.snoozed_until !== current.snoozedUntil) {
    const until = patch.snoozed_until === null ? null : new Date(patch.snoozed_until).toISOString();
    set.snoozedUntil = until;
    changes.push("snoozed_until");
    if (until)
      enqueue(
        tx,
        wakeSnoozedJob,
        { ticket_id: current.id },
        { runAt: new Date(until), workspaceId: current.workspaceId },
      );
  }
  let custom = current.custom ?? {};
  if (patch.custom !== undefined) {
    custom = { ...custom };
    for (const [key, value] of Object.entries(patch.custom)) {
      if (value === null) delete custom[key];
      else custom[key] = value;
    }
    set.custom = custom;
    changes.push("custom");
  }
  const suggestions = custom.ai_suggestions;
  if (suggestions && typeof suggestions === "object") {
    const remaining = { ...(suggestions as Record<string, unknown>) };
    let removed = false;
    for (const [member, suggestionKey] of Object.entries(SUGGESTION_FOR)) {
      if (patch[member as keyof TicketPatch] !== undefined && suggestionKey in remaining) {
        delete remaining[suggestionKey];
        removed = true;
      }
    }
    if (removed) {
      set.custom = { ...custom, ai_suggestions: remaining };
      if (!changes.includes("custom")) changes.push("custom");
    }
  }

  if (patch.tags !== undefined || patch.add_tags !== undefined || patch.remove_tags !== undefined) {
    const { added, removed } = applyLabelWrite(tx, ctx, "tickets", current.id, {
      tags: patch.tags,
      add_tags: patch.add_tags,
      remove_tags: patch.remove_tags,
    });
    for (const tag of added) timeline.push(["tagged", { tag }]);
    for (const tag of removed) timeline.push(["untagged", { tag }]);
    if (added.length + removed.length > 0) changes.push("tags");
  }
  if (patch.fields !== undefined) {
    const fieldChanges = applyFieldWrite(tx, ctx, "ticket", current.id, patch.fields);
    for (const change of fieldChanges)
      timeline.push(["field_changed", { key: change.key, from: change.from, to: change.to }]);
    if (fieldChanges.length > 0) changes.push("fields");
  }

  if (patch.status !== undefined && patch.status !== current.status) {
    if (options.enforceRequired && SOLVED_STATES.includes(patch.status))
      assertSolvable(tx, ctx.workspaceId, current.id);
    set.status = patch.status;
    // A solved or closed ticket has nothing left to wake for: its snooze ends, so the Snoozed folder
    // holds only tickets that will come back (unless this same patch snoozes it on purpose).
    if (SOLVED_STATES.includes(patch.status) && current.snoozedUntil !== null && patch.snoozed_until === undefined) {
      set.snoozedUntil = null;
      changes.push("snoozed_until");
    }
    if (patch.status === "solved" || (patch.status === "closed" && !current.solvedAt)) set.solvedAt = now;
    if (!SOLVED_STATES.includes(patch.status)) set.solvedAt = null;
    changes.push("status");
    timeline.push(["status_changed", { from: current.status, to: patch.status }]);
  }

  if (changes.length === 0) return { row: current, changes, assigneeChanged: false };
  set.updatedAt = now;
  const row = tx.update(tickets).set(set).where(eq(tickets.id, current.id)).returning().get()!;
  for (const [type, data] of timeline) recordActivity(tx, ctx, row, type, data, now);
  return { row, changes, assigneeChanged };
}
