/**
 * The PostgreSQL builds of sla.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./sla.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { businessHoursTable, slaClocksTable, slaPoliciesTable } from "./sla.definition";

export const slaPolicies = pgTable("sla_policies", slaPoliciesTable);
export const slaClocks = pgTable("sla_clocks", slaClocksTable);
export const businessHours = pgTable("business_hours", businessHoursTable);

export type SlaPolicyRow = typeof slaPolicies.$inferSelect;
export type SlaClockRow = typeof slaClocks.$inferSelect;
