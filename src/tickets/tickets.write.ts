import { one } from "../db/store";
import { eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { AttachmentRow } from "../attachments/attachments.public";
import { contactRefsOf } from "../contacts/contacts.public";
import { applyFieldWrite, missingRequiredOnSolve } from "../custom-fields/fields.public";
import type { Queryable, Tx } from "../db/database";
import { DeskError, invalidAt } from "../lib/errors";
import type { Ports } from "../lib/ports";
import { applyLabelWrite } from "../labels/labels.public";
import type { TicketPatch } from "./tickets.schemas";
import { composeMessage, insertComposedMessage, type AddMessageInput } from "./messages.service";
import type { MessageRow } from "./messages.table";
import { teamOfWorkspace } from "../teams/teams.public";
import { updateTicketCounters } from "./tickets.statements";
import { isAssignableMember } from "../members/members.public";
import { mailboxExists } from "../mailboxes/mailboxes.public";
import { type ActorType, recordActivity } from "./tickets.timeline";
import { tickets, type TicketRow, type TicketStatus } from "./tickets.table";

const SOLVED_STATES: TicketStatus[] = ["solved", "closed"];

/** An assignee must be a member of this workspace who is not a viewer. */
export async function assertAssignable(
  db: Queryable,
  workspaceId: string,
  userId: string,
  location: string,
): Promise<void> {
  if (!(await isAssignableMember(db, workspaceId, userId)))
    throw invalidAt(location, "The assignee must be a member of this workspace who is not a viewer.");
}

export async function assertTeam(db: Queryable, ctx: RequestContext, teamId: string, location: string): Promise<void> {
  const row = await teamOfWorkspace(db, ctx.workspaceId, teamId);
  const visible = row && (!row.private || ctx.visibleTeams === "all" || ctx.visibleTeams.includes(row.id));
  if (!visible) throw invalidAt(location, "No such team in this workspace.");
}

export async function assertMailbox(
  db: Queryable,
  workspaceId: string,
  mailboxId: string,
  location: string,
): Promise<void> {
  if (!(await mailboxExists(db, workspaceId, mailboxId)))
    throw invalidAt(location, "No such mailbox in this workspace.");
}

/** 422 field_required when a required_on_solve field is still empty (values written earlier in this transaction count). */
export async function assertSolvable(
  db: Queryable,
  workspaceId: string,
  ticketId: string,
  locationPrefix = "body.fields",
): Promise<void> {
  const missing = await missingRequiredOnSolve(db, workspaceId, ticketId);
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

export type PatchOptions = {
  enforceRequired: boolean;
  statusReason?: string;
  /** Who the activities are attributed to (default: the caller); AI decisions pass actor `ai`. */
  actor?: { type: ActorType; userId: string | null };
  /** Added to every activity's data (AI decisions: `{ via, model, confidence }`). */
  activityData?: Record<string, unknown>;
  /** Leave `custom.ai_suggestions` alone (a triage run writes its own in the same patch). */
  keepSuggestions?: boolean;
};

export type PatchOutcome = {
  row: TicketRow;
  changes: string[];
  assigneeChanged: boolean;
  /** When the patch snoozed the ticket: the caller schedules its wake-up (`scheduleWake`). */
  wakeAt: string | null;
};

/** What a patch changes, gathered step by step before the one write of the row. */
type PatchDraft = {
  set: Partial<typeof tickets.$inferInsert>;
  changes: string[];
  timeline: Array<[string, Record<string, unknown>]>;
  assigneeChanged: boolean;
  wakeAt: string | null;
};

/** The plain columns: subject, priority, severity, assignee, team, spam, snooze. */
async function patchColumns(
  tx: Tx,
  ctx: RequestContext,
  current: TicketRow,
  patch: TicketPatch,
  draft: PatchDraft,
): Promise<void> {
  if (patch.subject !== undefined && patch.subject !== current.subject) {
    draft.set.subject = patch.subject;
    draft.changes.push("subject");
  }
  if (patch.priority !== undefined && patch.priority !== current.priority) {
    draft.set.priority = patch.priority;
    draft.changes.push("priority");
    draft.timeline.push(["priority_changed", { from: current.priority, to: patch.priority }]);
  }
  if (patch.severity !== undefined && patch.severity !== current.severity) {
    draft.set.severity = patch.severity;
    draft.changes.push("severity");
    draft.timeline.push(["severity_changed", { from: current.severity, to: patch.severity }]);
  }
  if (patch.assignee_id !== undefined && patch.assignee_id !== current.assigneeId) {
    if (patch.assignee_id !== null) await assertAssignable(tx, ctx.workspaceId, patch.assignee_id, "body.assignee_id");
    draft.set.assigneeId = patch.assignee_id;
    draft.changes.push("assignee");
    draft.assigneeChanged = true;
    draft.timeline.push(["assigned", { from: current.assigneeId, to: patch.assignee_id }]);
  }
  if (patch.team_id !== undefined && patch.team_id !== current.teamId) {
    if (patch.team_id !== null) await assertTeam(tx, ctx, patch.team_id, "body.team_id");
    draft.set.teamId = patch.team_id;
    draft.changes.push("team_id");
    draft.timeline.push(["team_changed", { from: current.teamId, to: patch.team_id }]);
  }
  if (patch.spam !== undefined && patch.spam !== current.spam) {
    draft.set.spam = patch.spam;
    draft.changes.push("spam");
  }
  if (patch.snoozed_until !== undefined && patch.snoozed_until !== current.snoozedUntil) {
    const until = patch.snoozed_until === null ? null : new Date(patch.snoozed_until).toISOString();
    draft.set.snoozedUntil = until;
    draft.changes.push("snoozed_until");
    draft.wakeAt = until;
  }
}

/** `custom` members, and the AI suggestions a person's change answers. */
function patchCustom(current: TicketRow, patch: TicketPatch, keepSuggestions: boolean, draft: PatchDraft): void {
  let custom = current.custom ?? {};
  if (patch.custom !== undefined) {
    custom = { ...custom };
    for (const [key, value] of Object.entries(patch.custom)) {
      if (value === null) delete custom[key];
      else custom[key] = value;
    }
    draft.set.custom = custom;
    draft.changes.push("custom");
  }
  const suggestions = custom.ai_suggestions;
  if (suggestions && typeof suggestions === "object" && !keepSuggestions) {
    const remaining = { ...(suggestions as Record<string, unknown>) };
    let removed = false;
    for (const [member, suggestionKey] of Object.entries(SUGGESTION_FOR)) {
      if (patch[member as keyof TicketPatch] !== undefined && suggestionKey in remaining) {
        delete remaining[suggestionKey];
        removed = true;
      }
    }
    if (removed) {
      draft.set.custom = { ...custom, ai_suggestions: remaining };
      if (!draft.changes.includes("custom")) draft.changes.push("custom");
    }
  }
}

/** Labels and custom field values, written through their owners. */
async function patchLabelsAndFields(
  tx: Tx,
  ctx: RequestContext,
  current: TicketRow,
  patch: TicketPatch,
  draft: PatchDraft,
  ports: Ports,
): Promise<void> {
  if (patch.tags !== undefined || patch.add_tags !== undefined || patch.remove_tags !== undefined) {
    const { added, removed } = await applyLabelWrite(
      tx,
      ctx,
      "tickets",
      current.id,
      { tags: patch.tags, add_tags: patch.add_tags, remove_tags: patch.remove_tags },
      ports,
    );
    for (const tag of added) draft.timeline.push(["tagged", { tag }]);
    for (const tag of removed) draft.timeline.push(["untagged", { tag }]);
    if (added.length + removed.length > 0) draft.changes.push("tags");
  }
  if (patch.fields !== undefined) {
    const fieldChanges = await applyFieldWrite(tx, ctx, "ticket", current.id, patch.fields);
    for (const change of fieldChanges)
      draft.timeline.push(["field_changed", { key: change.key, from: change.from, to: change.to }]);
    if (fieldChanges.length > 0) draft.changes.push("fields");
  }
}

/** The status and what it moves (solved_at, an ended snooze); required fields checked first. */
async function patchStatus(
  tx: Tx,
  ctx: RequestContext,
  current: TicketRow,
  patch: TicketPatch,
  now: string,
  options: PatchOptions,
  draft: PatchDraft,
): Promise<void> {
  if (patch.status === undefined || patch.status === current.status) return;
  if (options.enforceRequired && SOLVED_STATES.includes(patch.status))
    await assertSolvable(tx, ctx.workspaceId, current.id);
  draft.set.status = patch.status;
  // A solved or closed ticket has nothing left to wake for: its snooze ends, so the Snoozed folder
  // holds only tickets that will come back (unless this same patch snoozes it on purpose).
  if (SOLVED_STATES.includes(patch.status) && current.snoozedUntil !== null && patch.snoozed_until === undefined) {
    draft.set.snoozedUntil = null;
    draft.changes.push("snoozed_until");
  }
  if (patch.status === "solved" || (patch.status === "closed" && !current.solvedAt)) draft.set.solvedAt = now;
  if (!SOLVED_STATES.includes(patch.status)) draft.set.solvedAt = null;
  draft.changes.push("status");
  draft.timeline.push([
    "status_changed",
    { from: current.status, to: patch.status, ...(options.statusReason ? { reason: options.statusReason } : {}) },
  ]);
}

/**
 * Applies a PATCH to one ticket inside the caller's transaction: validates references, writes the
 * row, labels and custom fields, logs one activity per timeline change. The caller emits
 * `ticket.updated` (so a reply can fold its own changes into the same event) and schedules the
 * wake-up of a snooze (`wakeAt`), whose job would otherwise import this file back.
 */
export async function applyTicketPatch(
  tx: Tx,
  ctx: RequestContext,
  current: TicketRow,
  patch: TicketPatch,
  now: string,
  options: PatchOptions,
  ports: Ports,
): Promise<PatchOutcome> {
  const draft: PatchDraft = { set: {}, changes: [], timeline: [], assigneeChanged: false, wakeAt: null };
  await patchColumns(tx, ctx, current, patch, draft);
  patchCustom(current, patch, options.keepSuggestions ?? false, draft);
  await patchLabelsAndFields(tx, ctx, current, patch, draft, ports);
  await patchStatus(tx, ctx, current, patch, now, options, draft);
  const { set, changes, timeline, assigneeChanged, wakeAt } = draft;

  if (changes.length === 0) return { row: current, changes, assigneeChanged: false, wakeAt: null };
  set.updatedAt = now;
  const row = one(await tx.update(tickets).set(set).where(eq(tickets.id, current.id)).returning())!;
  for (const [type, data] of timeline)
    await recordActivity(tx, ctx, row, type, { ...data, ...options.activityData }, now, options.actor);
  return { row, changes, assigneeChanged, wakeAt };
}

const PREVIEW_CHARS = 200;

/** What a new message moves on its ticket's counters, from the row in hand (nothing is written). */
export function messageCounters(
  ticket: TicketRow,
  message: MessageRow,
  now: string,
  opensTicket: boolean,
): { counters: Partial<TicketRow>; changes: string[] } {
  const counters: Partial<TicketRow> = { messageCount: ticket.messageCount + 1, updatedAt: now };
  const changes = ["message_count"];
  if (message.kind === "reply") {
    counters.lastMessageAt = now;
    counters.lastMessagePreview = message.bodyText.replace(/\s+/g, " ").trim().slice(0, PREVIEW_CHARS);
    changes.push("last_message_at", "last_message_preview");
    if (message.direction === "inbound") {
      counters.lastCustomerMessageAt = now;
      changes.push("last_customer_message_at");
    } else if (
      !opensTicket &&
      !ticket.firstRespondedAt &&
      (message.authorType === "user" || message.authorType === "api")
    ) {
      counters.firstRespondedAt = now;
      changes.push("first_responded_at");
    }
  }
  return { counters, changes };
}

export type WrittenMessage = {
  message: MessageRow;
  ticket: TicketRow;
  changes: string[];
  assigneeChanged: boolean;
  /** The message's attachments as linked (presented without reading them back). */
  attachments: AttachmentRow[];
};

/**
 * Writes one message and everything it moves on its stored ticket (counters, timestamps, status,
 * snooze) in the caller's transaction, with activities. Events are left to the caller, so a reply
 * folds its own changes into one `ticket.updated`.
 */
export async function writeMessage(
  tx: Tx,
  ctx: RequestContext,
  ticket: TicketRow,
  input: AddMessageInput,
  now: string,
  ports: Ports,
  options: { opensTicket?: boolean; contactEmail?: string | null } = {},
): Promise<WrittenMessage> {
  const outboundReply = input.kind === "reply" && (input.direction ?? "outbound") === "outbound";
  const contactEmail =
    options.contactEmail !== undefined
      ? options.contactEmail
      : outboundReply && ticket.contactId
        ? ((await contactRefsOf(tx, [ticket.contactId])).get(ticket.contactId)?.email ?? null)
        : null;
  const message = composeMessage(ctx, ticket, input, now, contactEmail);
  const { counters, changes } = messageCounters(ticket, message, now, options.opensTicket ?? false);
  const linked = await insertComposedMessage(tx, message, input.attachment_ids);
  let row: TicketRow = { ...ticket, ...counters };
  await updateTicketCounters(tx, row);

  let assigneeChanged = false;
  let status = input.status;
  const email = input.email ?? {};
  const customerReply = message.kind === "reply" && message.direction === "inbound";
  if (customerReply && status === undefined) {
    if (email.auth_failed) {
      // A reply that failed sender checks leaves the status alone, and says so on the timeline.
      await recordActivity(
        tx,
        ctx,
        row,
        "status_changed",
        { from: row.status, to: row.status, reason: "sender_unverified", message_id: message.id },
        now,
        {
          type: message.authorType === "contact" ? "contact" : "system",
          userId: null,
        },
      );
    } else if (row.status !== "open") status = "open";
  }
  // A customer's reply wakes a snoozed ticket: it comes back to the working folders at once.
  const wake = customerReply && !email.auth_failed && row.snoozedUntil !== null;
  if (status !== undefined || wake) {
    const outcome = await applyTicketPatch(
      tx,
      ctx,
      row,
      { ...(status !== undefined ? { status } : {}), ...(wake ? { snoozed_until: null } : {}) },
      now,
      { enforceRequired: !customerReply },
      ports,
    );
    row = outcome.row;
    changes.push(...outcome.changes);
    assigneeChanged = outcome.assigneeChanged;
  }
  return { message, ticket: row, changes, assigneeChanged, attachments: linked };
}
