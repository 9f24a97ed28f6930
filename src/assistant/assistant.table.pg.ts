/**
 * The PostgreSQL builds of assistant.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./assistant.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { assistantActionsTable, assistantSessionsTable } from "./assistant.definition";

export {
  ACTION_STATUSES,
  type ActionStatus,
  type ModelMessage,
  type RefJson,
  type StepJson,
  type TurnJson,
} from "./assistant.definition";

export const assistantSessions = pgTable("assistant_sessions", assistantSessionsTable);
export const assistantActions = pgTable("assistant_actions", assistantActionsTable);

export type AssistantSessionRow = typeof assistantSessions.$inferSelect;
export type AssistantActionRow = typeof assistantActions.$inferSelect;
