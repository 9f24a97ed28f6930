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
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): webhooks.table.ts builds it for
// SQLite (queries, types, migrations), webhooks.table.pg.ts for PostgreSQL.

export const webhooksTable = table(
  "webhooks",
  {
    id: id(),
    workspaceId: workspaceId(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** Event types, or ["*"] for all. */
    events: json<string[]>("events").notNull(),
    /** Private teams whose events this endpoint may receive in full. */
    teamIds: json<string[]>("team_ids").notNull(),
    enabled: flag("enabled"),
    /** The signing secret, sealed with the instance key (shown once at creation). */
    secretSealed: text("secret_sealed").notNull(),
    /** Failed attempts in a row (any delivery); a success resets it. Drives the circuit breaker. */
    failureStreak: integer("failure_streak").notNull().default(0),
    /** While set and in the future, the endpoint's deliveries wait (circuit open) instead of being sent. */
    pausedUntil: timestamp("paused_until"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhooks_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export const webhookDeliveriesTable = table(
  "webhook_deliveries",
  {
    id: id(),
    workspaceId: workspaceId(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => [webhooksTable, "id"], { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    responseCode: integer("response_code"),
    durationMs: integer("duration_ms"),
    /** The first KiB of the last response body, for debugging an endpoint. */
    responseExcerpt: text("response_excerpt"),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.id),
    index("webhook_deliveries_event_idx").on(t.eventId),
    // An endpoint's worker takes its next due delivery from here (pending rows only: the index stays small).
    index("webhook_deliveries_due_idx").on(t.webhookId, t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);
