import { bigint, createdAt, flag, id, index, integer, table, text, updatedAt, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): ai.table.ts builds it for
// SQLite (queries, types, migrations), ai.table.pg.ts for PostgreSQL.

/**
 * A workspace's AI choices beyond the features object (which lives in WorkspaceSettings `ai`):
 * models (empty = the instance default), the widget's monthly cap and its own provider key.
 */
export const aiSettingsTable = table("ai_settings", {
  workspaceId: text("workspace_id").primaryKey(),
  model: text("model").notNull().default(""),
  fastModel: text("fast_model").notNull().default(""),
  widgetModel: text("widget_model").notNull().default(""),
  /**
   * What Desk may spend on its own for anonymous traffic per UTC calendar month in micro-USD (the AI
   * agent's answers, and auto-triage and AI conditions on chat tickets; see ai.budget.ts); 0 = no cap.
   */
  widgetCapMicros: bigint("widget_cap_micros").notNull().default(25_000_000),
  /** The workspace's own provider key, sealed (deps.secrets); null = the instance's key. */
  ownKeySealed: text("own_key_sealed"),
  /** When a call last found the own key refused (cleared when a new key is set). */
  ownKeyFailedAt: text("own_key_failed_at"),
  updatedAt: updatedAt(),
});

export const AI_SOURCES = ["instance", "own_key"] as const;
export type AiSource = (typeof AI_SOURCES)[number];

/**
 * One row per provider call (the meter): what it was for, on which model, its tokens and its
 * price in micro-USD at list price (integers, so reports add up exactly). Failed calls cost 0.
 */
export const aiUsageTable = table(
  "ai_usage",
  {
    id: id(),
    workspaceId: workspaceId(),
    feature: text("feature").notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    usdMicros: integer("usd_micros").notNull().default(0),
    /** The member who asked; null for automations, jobs and the AI agent. */
    userId: text("user_id"),
    source: text("source", { enum: AI_SOURCES }).notNull(),
    ok: flag("ok"),
    createdAt: createdAt(),
  },
  (t) => [index("ai_usage_ws_created_idx").on(t.workspaceId, t.createdAt)],
);

/**
 * Tickets the system's own AI leaves alone: their sender spent their AI budget (a chat visitor or
 * their address over the widget's hourly allowance). No AI answer, auto-triage, summary or AI
 * condition runs on them; people still see and answer them.
 */
export const aiQuietTicketsTable = table("ai_quiet_tickets", {
  ticketId: text("ticket_id").primaryKey(),
  workspaceId: workspaceId(),
  reason: text("reason").notNull(),
  createdAt: createdAt(),
});
