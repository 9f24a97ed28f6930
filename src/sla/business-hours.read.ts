import { first } from "../db/store";
import { eq } from "drizzle-orm";
import type { Queryable } from "../db/database";
import type { WorkingHours } from "./business-hours.calc";
import { businessHours } from "./sla.table";

export type BusinessHoursJson = WorkingHours & { enabled: boolean };

const weekday = [{ start: "09:00", end: "17:00" }];
/** A workspace that never set its hours: off, UTC, Monday to Friday 09:00–17:00. */
export const DEFAULT_BUSINESS_HOURS: BusinessHoursJson = {
  enabled: false,
  timezone: "UTC",
  schedule: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [], sun: [] },
  holidays: [],
};

export async function businessHoursOf(db: Queryable, workspaceId: string): Promise<BusinessHoursJson> {
  const row = first(await db.select().from(businessHours).where(eq(businessHours.workspaceId, workspaceId)).limit(1));
  if (!row) return DEFAULT_BUSINESS_HOURS;
  return { enabled: row.enabled, timezone: row.timezone, schedule: row.schedule, holidays: row.holidays };
}
