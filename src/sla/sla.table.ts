import { sqliteTable } from "../db/schema-kit";
import { businessHoursTable, slaClocksTable, slaPoliciesTable } from "./sla.definition";

/** The SQLite builds of sla.definition.ts: what every query, type and migration uses. */
export const slaPolicies = sqliteTable("sla_policies", slaPoliciesTable);
export const slaClocks = sqliteTable("sla_clocks", slaClocksTable);
export const businessHours = sqliteTable("business_hours", businessHoursTable);

export type SlaPolicyRow = typeof slaPolicies.$inferSelect;
export type SlaClockRow = typeof slaClocks.$inferSelect;
