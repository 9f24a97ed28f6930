import { describe, expect, test } from "bun:test";
import { is, SQL, sql } from "drizzle-orm";
import { PgDialect, getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import {
  getTableConfig,
  index,
  integer,
  SQLiteSyncDialect,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, json, timestamp, updatedAt, workspaceId } from "../db/columns";
import { activitiesTable, ticketsTable } from "./tickets.definition";
import {
  type activities,
  CHANNELS,
  PRIORITIES,
  SEVERITIES,
  TICKET_STATUSES,
  type TicketCsat,
  type TicketSla,
  type tickets,
} from "./tickets.table";

// The hand-written tables the kit replaced (as committed before it): the builds must match them in SQL, config and types.
/** A ticket is live when neither deleted nor merged away: every list and count filters on this. */
const LIVE = sql`deleted_at IS NULL AND merged_into_id IS NULL`;

const handTickets = sqliteTable(
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
    /** Sort keys derived in SQL so whoever writes priority, severity or sla keeps them right. */
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
      sql`coalesce(min(coalesce(CASE WHEN first_responded_at IS NULL THEN json_extract(sla, '$.first_response_due_at') END, json_extract(sla, '$.resolution_due_at')), coalesce(json_extract(sla, '$.resolution_due_at'), CASE WHEN first_responded_at IS NULL THEN json_extract(sla, '$.first_response_due_at') END)), '9999')`,
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

const handActivities = sqliteTable(
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

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = [
  true satisfies Same<typeof tickets.$inferSelect, typeof handTickets.$inferSelect>,
  true satisfies Same<typeof tickets.$inferInsert, typeof handTickets.$inferInsert>,
  true satisfies Same<typeof activities.$inferSelect, typeof handActivities.$inferSelect>,
  true satisfies Same<typeof activities.$inferInsert, typeof handActivities.$inferInsert>,
  // The PostgreSQL builds answer rows of the same shape, so presenters and services need not change.
  true satisfies Same<typeof ticketsTable.pg.$inferSelect, typeof handTickets.$inferSelect>,
  true satisfies Same<typeof ticketsTable.pg.$inferInsert, typeof handTickets.$inferInsert>,
  true satisfies Same<typeof activitiesTable.pg.$inferSelect, typeof handActivities.$inferSelect>,
];

const sqlite = new SQLiteSyncDialect();
const pg = new PgDialect();
const text_ = (d: SQLiteSyncDialect | PgDialect, x: unknown) => (is(x, SQL) ? d.sqlToQuery(x, "indexes").sql : x);

const shape = (c: ReturnType<typeof getTableConfig>) => ({
  name: c.name,
  columns: c.columns.map((k) => ({
    key: k.name,
    type: k.getSQLType(),
    notNull: k.notNull,
    primary: k.primary,
    default: k.default,
    hasDefault: k.hasDefault,
    kind: k.columnType,
    enumValues: k.enumValues,
    generated: k.generated && { ...k.generated, as: text_(sqlite, k.generated.as) },
  })),
  indexes: c.indexes.map(({ config: i }) => ({
    name: i.name,
    unique: i.unique,
    where: text_(sqlite, i.where),
    columns: i.columns.map((x) => ("name" in x ? x.name : text_(sqlite, x))),
  })),
  foreignKeys: c.foreignKeys.length,
  primaryKeys: c.primaryKeys.length,
});

describe("tickets tables from the schema kit", () => {
  test("the SQLite builds are the hand-written tables", () => {
    expect(same.every(Boolean)).toBe(true);
    // The SQLite builds themselves, whichever build this process's tables are (deskTable).
    expect(shape(getTableConfig(ticketsTable.sqlite))).toEqual(shape(getTableConfig(handTickets)));
    expect(shape(getTableConfig(activitiesTable.sqlite))).toEqual(shape(getTableConfig(handActivities)));
  });

  test("the PostgreSQL build stores its generated sort keys and reads the SLA deadlines from jsonb", () => {
    const cfg = pgConfig(ticketsTable.pg);
    const column = (name: string) => cfg.columns.find((c) => c.name === name);
    const generated = (name: string) => {
      const g = column(name)?.generated;
      return g && { mode: g.mode, as: text_(pg, g.as) };
    };
    expect(generated("priority_rank")).toEqual({
      mode: "stored",
      as: "CASE priority WHEN 'urgent' THEN 4 WHEN 'high' THEN 3 WHEN 'normal' THEN 2 ELSE 1 END",
    });
    expect(generated("severity_rank")?.mode).toBe("stored");
    const due = generated("due_at");
    expect(due?.mode).toBe("stored");
    expect(due?.as).toContain("least(");
    expect(due?.as).toContain("sla->>'resolution_due_at'");
    expect(due?.as).not.toContain("json_extract");
    expect([column("spam")?.getSQLType(), column("sla")?.getSQLType(), column("custom")?.getSQLType()]).toEqual([
      "boolean",
      "jsonb",
      "jsonb",
    ]);
    expect(cfg.indexes.map((i) => i.config.name)).toEqual(
      getTableConfig(ticketsTable.sqlite).indexes.map((i) => i.config.name),
    );
  });
});
