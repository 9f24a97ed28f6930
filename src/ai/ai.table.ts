import { sqliteTable } from "../db/schema-kit";
import { aiQuietTicketsTable, aiSettingsTable, aiUsageTable } from "./ai.definition";

export { AI_SOURCES, type AiSource } from "./ai.definition";

/** The SQLite builds of ai.definition.ts: what every query, type and migration uses. */
export const aiSettings = sqliteTable("ai_settings", aiSettingsTable);
export const aiUsage = sqliteTable("ai_usage", aiUsageTable);
export const aiQuietTickets = sqliteTable("ai_quiet_tickets", aiQuietTicketsTable);

export type AiUsageRow = typeof aiUsage.$inferSelect;
