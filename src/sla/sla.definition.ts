import { sql } from "drizzle-orm";
import type { Holiday, Schedule } from "./business-hours.calc";
import {
  boolean,
  createdAt,
  flag,
  id,
  index,
  integer,
  json,
  table,
  text,
  timestamp,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): sla.table.ts builds it for
// SQLite (queries, types, migrations), sla.table.pg.ts for PostgreSQL.

const PRIORITY_VALUES = ["low", "normal", "high", "urgent"] as const;

export const slaPoliciesTable = table(
  "sla_policies",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    /** null matches every priority. */
    priority: text("priority", { enum: PRIORITY_VALUES }),
    firstResponseMinutes: integer("first_response_minutes").notNull(),
    resolutionMinutes: integer("resolution_minutes").notNull(),
    businessHours: flag("business_hours"),
    enabled: boolean("enabled").notNull().default(true),
    position: integer("position").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sla_policies_workspace_idx").on(t.workspaceId, t.position, t.id)],
);

/**
 * The SLA clock of each ticket a policy applies to (or once applied to): the deadlines, which of
 * them were missed, and the next one still pending. The breach job reads only the rows whose
 * `next_due_at` has passed, through the partial index, so its cost follows the breaches due, not
 * the number of tickets.
 */
export const slaClocksTable = table(
  "sla_clocks",
  {
    ticketId: text("ticket_id").primaryKey(),
    workspaceId: workspaceId(),
    policyId: text("policy_id"),
    /** When the resolution clock started: the ticket's creation, or its latest reopening. */
    startedAt: text("started_at").notNull(),
    /** The status was solved or closed when last seen (a change away from it is a reopening). */
    solved: flag("solved"),
    firstDueAt: timestamp("first_due_at"),
    resolutionDueAt: timestamp("resolution_due_at"),
    firstBreached: flag("first_breached"),
    resolutionBreached: flag("resolution_breached"),
    /** Any deadline of the ticket was ever missed (Ticket.sla.breached). */
    breached: flag("breached"),
    /** The nearest deadline neither met nor missed yet; null when none is pending. */
    nextDueAt: timestamp("next_due_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("sla_clocks_next_due_idx").on(t.nextDueAt).where(sql`next_due_at IS NOT NULL`),
    // The workspace purge deletes by workspace.
    index("sla_clocks_workspace_idx").on(t.workspaceId),
  ],
);

export const businessHoursTable = table("business_hours", {
  workspaceId: text("workspace_id").primaryKey(),
  enabled: flag("enabled"),
  timezone: text("timezone").notNull(),
  schedule: json<Schedule>("schedule").notNull(),
  holidays: json<Holiday[]>("holidays").notNull(),
  updatedAt: updatedAt(),
});
