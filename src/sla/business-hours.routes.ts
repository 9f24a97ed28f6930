import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { BusinessHoursSchema, PutBusinessHoursBody } from "./business-hours.schemas";
import { businessHoursOf } from "./business-hours.read";
import { putBusinessHours } from "./business-hours.service";

const read = { role: "viewer", scopes: ["settings:read"] } as const;
const write = { role: "admin", scopes: ["settings:write"] } as const;

export function businessHoursRoutes(deps: Deps) {
  return new Elysia({ prefix: "/business-hours", tags: ["business-hours"] })
    .use(deps.guard)
    .get("/", async ({ ctx }) => await businessHoursOf(deps.db, ctx.workspaceId), {
      access: read,
      response: { 200: BusinessHoursSchema },
      detail: {
        summary: "The workspace's business hours",
        description:
          "A workspace that never set them reads as disabled, UTC, Monday to Friday 09:00–17:00, no holidays.",
      },
    })
    .put("/", async ({ ctx, body }) => await putBusinessHours(ctx, body, deps), {
      access: write,
      body: PutBusinessHoursBody,
      response: { 200: BusinessHoursSchema },
      detail: {
        summary: "Replace the business hours (audit-logged as business_hours.updated)",
        description:
          "Up to 3 ranges a day on the quarter hour (HH:MM; 24:00 ends a day; ranges of a day may not overlap), up to 100 " +
          "holidays (local dates, each once), an IANA time zone (stored under its canonical name). Times are read on the " +
          "zone's wall clock, so a range spanning a DST change lasts what the clock says. SLA clocks counting business " +
          "minutes are recomputed for unsolved tickets.",
      },
    });
}
