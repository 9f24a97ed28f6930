import { createdAt, id, index, integer, json, table, text, updatedAt, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): assistant.table.ts builds it for
// SQLite (queries, types, migrations), assistant.table.pg.ts for PostgreSQL.

/** A step of a run as SPEC.md's Assistant step shows it. */
export type StepJson = {
  id: string;
  tool: string;
  label: string;
  status: "running" | "done" | "error" | "awaiting_approval" | "approved" | "denied" | "expired";
  summary?: string;
  refs?: RefJson[];
  action_id?: string;
};
export type RefJson = { kind: string; id: string; label: string; number?: number };

/** One turn of the transcript: what the user asked, or what the assistant answered with its steps. */
export type TurnJson = { id: string; role: "user" | "assistant"; text: string; steps: StepJson[]; created_at: string };

/** The provider conversation, as OpenAI-compatible messages (tool calls and results included). */
export type ModelMessage = {
  role: "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
};

/**
 * An assistant conversation: private to its user. `transcript` is what the person sees; `messages`
 * what the model sees (tool results bounded, customer text inside data blocks).
 */
export const assistantSessionsTable = table(
  "assistant_sessions",
  {
    id: id(),
    workspaceId: workspaceId(),
    userId: text("user_id").notNull(),
    title: text("title").notNull(),
    transcript: json<TurnJson[]>("transcript").notNull(),
    messages: json<ModelMessage[]>("messages").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("assistant_sessions_user_idx").on(t.workspaceId, t.userId, t.updatedAt)],
);

export const ACTION_STATUSES = ["pending", "approved", "denied", "expired", "failed"] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/**
 * A proposed change waiting for a person. The token (only its SHA-256 is kept) is bound to this
 * action, its user, the sign-in session that saw it and the workspace; it expires at `expiresAt`.
 */
export const assistantActionsTable = table(
  "assistant_actions",
  {
    id: id(),
    workspaceId: workspaceId(),
    userId: text("user_id").notNull(),
    sessionId: text("session_id").notNull(),
    authSessionId: text("auth_session_id"),
    callId: text("call_id").notNull(),
    stepId: text("step_id").notNull(),
    tool: text("tool").notNull(),
    args: json<Record<string, unknown>>("args").notNull(),
    preview: json<Record<string, unknown>>("preview").notNull(),
    tokenHash: text("token_hash").notNull(),
    status: text("status", { enum: ACTION_STATUSES }).notNull(),
    expiresAt: text("expires_at").notNull(),
    decidedAt: text("decided_at"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("assistant_actions_session_idx").on(t.sessionId, t.status)],
);
