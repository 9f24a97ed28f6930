import { deskTable } from "../db/schema-kit";
import { aiQuietTicketsTable, aiSettingsTable, aiUsageTable } from "./ai.definition";

export { AI_SOURCES, type AiSource } from "./ai.definition";

/** The builds of ai.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const aiSettings = deskTable("ai_settings", aiSettingsTable);
export const aiUsage = deskTable("ai_usage", aiUsageTable);
export const aiQuietTickets = deskTable("ai_quiet_tickets", aiQuietTicketsTable);

export type AiUsageRow = typeof aiUsage.$inferSelect;
