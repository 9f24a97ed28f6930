import type { AutomationAction, AutomationCondition, AutomationTrigger, MatchedCondition } from "./automations.schemas";
import {
  createdAt,
  flag,
  id,
  index,
  integer,
  json,
  primaryKey,
  table,
  text,
  uniqueIndex,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): automations.table.ts builds it for
// SQLite (queries, types, migrations), automations.table.pg.ts for PostgreSQL.

export const automationsTable = table(
  "automations",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    trigger: text("trigger").$type<AutomationTrigger>().notNull(),
    conditions: json<AutomationCondition[]>("conditions").notNull().default([]),
    actions: json<AutomationAction[]>("actions").notNull().default([]),
    enabled: flag("enabled"),
    /** The admin's explicit consent that an ai_decide condition may trigger send_reply (mail to the customer). */
    allowCustomerReplyOnAiDecision: flag("allow_customer_reply_on_ai_decision"),
    position: integer("position").notNull().default(0),
    runCount: integer("run_count").notNull().default(0),
    lastRunAt: text("last_run_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("automations_workspace_trigger_idx").on(t.workspaceId, t.trigger, t.position)],
);

/**
 * One row per automation that acted on (or was stopped at) one stored event: the record that a run
 * happened, read back so a re-drained event never runs twice, and what each action did.
 */
export const automationRunsTable = table(
  "automation_runs",
  {
    id: id(),
    workspaceId: workspaceId(),
    automationId: text("automation_id").notNull(),
    eventId: text("event_id").notNull(),
    ticketId: text("ticket_id").notNull(),
    /** `applied` (its actions ran) or `stopped` (the chain of automations was too deep). */
    outcome: text("outcome", { enum: ["applied", "stopped"] }).notNull(),
    depth: integer("depth").notNull(),
    /** Per action: `{ type, result: applied | skipped | noop, reason? }`. */
    notes: json<AutomationRunNote[]>("notes").notNull().default([]),
    /** Time runs only: each condition with the ticket's value when the rule acted. */
    matched: json<MatchedCondition[]>("matched").notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("automation_runs_once_idx").on(t.automationId, t.eventId),
    index("automation_runs_automation_idx").on(t.automationId, t.createdAt),
    index("automation_runs_created_idx").on(t.createdAt),
  ],
);

export type AutomationRunNote = { type: string; result: "applied" | "skipped" | "noop"; reason?: string };

/**
 * A time rule acted on a ticket: it does not act on it again until the ticket changes in a way this
 * rule did not cause. The automations consumer deletes the mark on such a change (an event later
 * than `acted_at` whose chain of automations does not include this rule).
 */
export const automationTimeMarksTable = table(
  "automation_time_marks",
  {
    automationId: text("automation_id").notNull(),
    ticketId: text("ticket_id").notNull(),
    workspaceId: workspaceId(),
    actedAt: text("acted_at").notNull(),
  },
  (t) => [primaryKey(t.automationId, t.ticketId), index("automation_time_marks_ticket_idx").on(t.ticketId)],
);
