import { sqliteTable } from "../db/schema-kit";
import { assistantActionsTable, assistantSessionsTable } from "./assistant.definition";

export {
  ACTION_STATUSES,
  type ActionStatus,
  type ModelMessage,
  type RefJson,
  type StepJson,
  type TurnJson,
} from "./assistant.definition";

/** The SQLite builds of assistant.definition.ts: what every query, type and migration uses. */
export const assistantSessions = sqliteTable("assistant_sessions", assistantSessionsTable);
export const assistantActions = sqliteTable("assistant_actions", assistantActionsTable);

export type AssistantSessionRow = typeof assistantSessions.$inferSelect;
export type AssistantActionRow = typeof assistantActions.$inferSelect;
