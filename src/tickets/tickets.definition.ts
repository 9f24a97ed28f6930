import { sql } from "drizzle-orm";
import {
  createdAt,
  flag,
  id,
  index,
  integer,
  json,
  table,
  text,
  timestamp,
  uniqueIndex,
  perDialect,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): tickets.table.ts builds it for
// SQLite (queries, types, migrations), tickets.table.pg.ts for PostgreSQL.

export const TICKET_STATUSES = ["open", "pending", "on_hold", "solved", "closed"] as const;
export const PRIORITIES = ["low", "normal", "high", "urgent"] as const;
export const SEVERITIES = ["sev1", "sev2", "sev3", "sev4"] as const;
export const CHANNELS = ["email", "chat", "api", "portal"] as const;

export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];
export type Severity = (typeof SEVERITIES)[number];
export type Channel = (typeof CHANNELS)[number];
export type TicketSla = {
  policy_id: string | null;
  first_response_due_at: string | null;
  resolution_due_at: string | null;
  breached: boolean;
};
export type TicketCsat = { score: number; comment: string };

/** A ticket is live when neither deleted nor merged away: every list and count filters on this. */
const LIVE = sql`deleted_at IS NULL AND merged_into_id IS NULL`;

export const ticketsTable = table(
  "tickets",
  {
    id: id(),
    workspaceId: workspaceId(),
    number: integer("number").notNull(),
    subject: text("subject").notNull(),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("open"),
    priority: text("priority", { enum: PRIORITIES }).notNull().default("normal"),
    severity: text("severity", { enum: SEVERITIES }),
    channel: text("channel", { enum: CHANNELS }).notNull().default("api"),
    mailboxId: text("mailbox_id"),
    contactId: text("contact_id"),
    assigneeId: text("assignee_id"),
    teamId: text("team_id"),
    spam: flag("spam"),
    snoozedUntil: timestamp("snoozed_until"),
    solvedAt: timestamp("solved_at"),
    firstRespondedAt: timestamp("first_responded_at"),
    lastMessageAt: text("last_message_at").notNull(),
    lastCustomerMessageAt: timestamp("last_customer_message_at"),
    lastMessagePreview: text("last_message_preview").notNull().default(""),
    messageCount: integer("message_count").notNull().default(0),
    csat: json<TicketCsat>("csat"),
    custom: json<Record<string, unknown>>("custom").notNull().default({}),
    sla: json<TicketSla>("sla"),
    mergedIntoId: text("merged_into_id"),
    deletedAt: timestamp("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * Sort keys derived in SQL so whoever writes priority, severity or sla keeps them right. Virtual on
     * SQLite (computed on read, kept in the indexes); PostgreSQL stores them (it has no virtual ones).
     */
    priorityRank: integer("priority_rank").generatedAlwaysAs(
      sql`CASE priority WHEN 'urgent' THEN 4 WHEN 'high' THEN 3 WHEN 'normal' THEN 2 ELSE 1 END`,
      { mode: "virtual" },
    ),
    severityRank: integer("severity_rank").generatedAlwaysAs(
      sql`CASE severity WHEN 'sev1' THEN 1 WHEN 'sev2' THEN 2 WHEN 'sev3' THEN 3 WHEN 'sev4' THEN 4 ELSE 5 END`,
      { mode: "virtual" },
    ),
    /** The nearest SLA deadline still ahead of the ticket ('9999' when none, so it sorts last). */
    dueAt: text("due_at").generatedAlwaysAs(
      perDialect({
        sqlite: sql`coalesce(min(coalesce(CASE WHEN first_responded_at IS NULL THEN json_extract(sla, '$.first_response_due_at') END, json_extract(sla, '$.resolution_due_at')), coalesce(json_extract(sla, '$.resolution_due_at'), CASE WHEN first_responded_at IS NULL THEN json_extract(sla, '$.first_response_due_at') END)), '9999')`,
        // least() skips nulls where SQLite's min() answers null, but neither argument is null unless
        // both deadlines are, so both give the same value; `->>` reads the jsonb key as text.
        pg: sql`coalesce(least(coalesce(CASE WHEN first_responded_at IS NULL THEN sla->>'first_response_due_at' END, sla->>'resolution_due_at'), coalesce(sla->>'resolution_due_at', CASE WHEN first_responded_at IS NULL THEN sla->>'first_response_due_at' END)), '9999')`,
      }),
      { mode: "virtual" },
    ),
  },
  (t) => [
    uniqueIndex("tickets_workspace_number_unique").on(t.workspaceId, t.number),
    index("tickets_ws_last_message_idx").on(t.workspaceId, t.lastMessageAt, t.id).where(LIVE),
    // spam is in the index so filters on other columns (custom fields) are checked without reading each row.
    index("tickets_ws_status_last_message_idx").on(t.workspaceId, t.status, t.spam, t.lastMessageAt, t.id).where(LIVE),
    index("tickets_ws_created_idx").on(t.workspaceId, t.createdAt, t.id).where(LIVE),
    index("tickets_ws_assignee_last_message_idx").on(t.workspaceId, t.assigneeId, t.lastMessageAt, t.id).where(LIVE),
    index("tickets_ws_assignee_status_idx").on(t.workspaceId, t.assigneeId, t.status, t.lastMessageAt).where(LIVE),
    index("tickets_ws_team_status_idx").on(t.workspaceId, t.teamId, t.status, t.lastMessageAt).where(LIVE),
    index("tickets_ws_contact_idx").on(t.workspaceId, t.contactId, t.lastMessageAt),
    index("tickets_ws_mailbox_idx").on(t.workspaceId, t.mailboxId, t.lastMessageAt).where(LIVE),
    index("tickets_ws_priority_idx").on(t.workspaceId, t.priorityRank, t.id).where(LIVE),
    index("tickets_ws_severity_idx").on(t.workspaceId, t.severityRank, t.id).where(LIVE),
    index("tickets_ws_due_idx").on(t.workspaceId, t.dueAt, t.id).where(LIVE),
    index("tickets_ws_solved_idx").on(t.workspaceId, t.solvedAt).where(sql`solved_at IS NOT NULL`),
    // Auto-close reads only tickets still solved; closed ones (the many) never enter this index.
    index("tickets_ws_autoclose_idx")
      .on(t.workspaceId, t.solvedAt)
      .where(sql`status = 'solved' AND deleted_at IS NULL AND merged_into_id IS NULL`),
    index("tickets_snoozed_idx").on(t.snoozedUntil).where(sql`snoozed_until IS NOT NULL`),
  ],
);

/** Timeline entries that are not messages. */
export const activitiesTable = table(
  "activities",
  {
    id: id(),
    workspaceId: workspaceId(),
    ticketId: text("ticket_id").notNull(),
    type: text("type").notNull(),
    data: json<Record<string, unknown>>("data").notNull().default({}),
    actorType: text("actor_type", { enum: ["user", "api", "system", "contact", "ai", "automation"] }).notNull(),
    actorUserId: text("actor_user_id"),
    /** The automation that made the change (actor type `automation`), as named when it ran. */
    actorAutomation: json<{ id: string; name: string }>("actor_automation"),
    createdAt: createdAt(),
  },
  (t) => [index("activities_ticket_idx").on(t.ticketId, t.createdAt, t.id)],
);
