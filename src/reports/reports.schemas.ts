import { z } from "zod";
import { UserRefSchema } from "../tickets/tickets.public";

export const ReportQuery = z.object({ from: z.string().max(40).optional(), to: z.string().max(40).optional() });

/** GET /v1/reports/overview: the shape of `Overview` in reports.service.ts. */
export const OverviewSchema = z.object({
  from: z.string(),
  to: z.string(),
  created: z.number(),
  solved: z.number(),
  open_now: z.number(),
  first_response_p50_minutes: z.number().nullable(),
  resolution_p50_minutes: z.number().nullable(),
  csat_avg: z.number().nullable(),
  csat_count: z.number(),
  sla_breached: z
    .number()
    .describe(
      "tickets created in the range that missed an SLA deadline (first response or resolution), as recorded by the breach job",
    ),
  by_day: z.array(z.object({ date: z.string(), created: z.number(), solved: z.number() })),
  by_channel: z.record(z.string(), z.number()),
  by_severity: z.record(z.string(), z.number()),
  by_agent: z.array(
    z.object({ user: UserRefSchema, solved: z.number(), first_response_p50_minutes: z.number().nullable() }),
  ),
});
