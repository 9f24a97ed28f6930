import { deskTable } from "../db/schema-kit";
import { businessHoursTable, slaClocksTable, slaPoliciesTable } from "./sla.definition";

/** The builds of sla.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const slaPolicies = deskTable("sla_policies", slaPoliciesTable);
export const slaClocks = deskTable("sla_clocks", slaClocksTable);
export const businessHours = deskTable("business_hours", businessHoursTable);

export type SlaPolicyRow = typeof slaPolicies.$inferSelect;
export type SlaClockRow = typeof slaClocks.$inferSelect;
