import { deskTable } from "../db/schema-kit";
import { assistantActionsTable, assistantSessionsTable } from "./assistant.definition";

export {
  ACTION_STATUSES,
  type ActionStatus,
  type ModelMessage,
  type RefJson,
  type StepJson,
  type TurnJson,
} from "./assistant.definition";

/** The builds of assistant.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const assistantSessions = deskTable("assistant_sessions", assistantSessionsTable);
export const assistantActions = deskTable("assistant_actions", assistantActionsTable);

export type AssistantSessionRow = typeof assistantSessions.$inferSelect;
export type AssistantActionRow = typeof assistantActions.$inferSelect;
