/**
 * The PostgreSQL builds of ai.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./ai.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { aiQuietTicketsTable, aiSettingsTable, aiUsageTable } from "./ai.definition";

export { AI_SOURCES, type AiSource } from "./ai.definition";

export const aiSettings = pgTable("ai_settings", aiSettingsTable);
export const aiUsage = pgTable("ai_usage", aiUsageTable);
export const aiQuietTickets = pgTable("ai_quiet_tickets", aiQuietTicketsTable);

export type AiUsageRow = typeof aiUsage.$inferSelect;
