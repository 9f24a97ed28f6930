import { Elysia } from "elysia";
import { READ_POOL_NOTE } from "../db/read-pool";
import type { Deps } from "../deps";
import { OverviewSchema, ReportQuery } from "./reports.schemas";
import { workspaceTimeZone } from "../workspaces/workspaces.public";
import { overviewRead, reportRange } from "./reports.service";

export function reportsRoutes(deps: Deps) {
  return new Elysia({ tags: ["reports"] }).use(deps.guard).get(
    "/reports/overview",
    async ({ ctx, query }) => {
      const timeZone = await workspaceTimeZone(deps.db, ctx.workspaceId);
      const range = reportRange(deps.clock.now(), query.from, query.to, timeZone);
      return deps.reads.run(overviewRead, ctx.workspaceId, { ctx, range, timeZone });
    },
    {
      access: { role: "viewer", scopes: ["tickets:read"] },
      query: ReportQuery,
      response: { 200: OverviewSchema },
      detail: {
        summary:
          "Ticket figures over [from, to) of the tickets the caller may see (RFC 3339 or YYYY-MM-DD; dates and by_day are days in the workspace's time zone, UTC when unset; a date-only `to` includes that day; default the last 30 days)",
        description: READ_POOL_NOTE,
      },
    },
  );
}
