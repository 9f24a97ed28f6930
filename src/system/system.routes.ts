import { Elysia } from "elysia";
import { z } from "zod";
import { requestBackup } from "../backups/backups.public";
import type { Deps } from "../deps";
import { forbidden } from "../lib/errors";
import { SystemSchema } from "./system.schemas";
import { isOperator, systemState } from "./system.service";

export function systemRoutes(deps: Deps) {
  const startedAt = deps.clock.now();
  return new Elysia({ prefix: "/system", tags: ["system"] })
    .use(deps.guard)
    .get("/", async ({ ctx }) => await systemState(ctx, deps, startedAt), {
      access: { role: "admin", scopes: ["settings:read"] },
      response: { 200: SystemSchema },
      detail: {
        summary:
          "How this Desk is doing: version, mailboxes, recent errors; for the operator also disk, jobs and backups",
        description:
          "Admins see their workspace's mailboxes and its jobs that failed for good. The operator (the first person to register on " +
          "this instance, and the admins of the workspaces that person owns) also sees the instance: uptime, database and WAL size, free disk, the job queue, each event consumer's lag (events behind and seconds behind; also " +
          "desk_consumer_lag_events and desk_consumer_lag_seconds on /metrics) and the backups " +
          "(schedule from DESK_BACKUP_INTERVAL, retention from DESK_BACKUP_KEEP, and the latest runs).",
      },
    })
    .post(
      "/backups",
      async ({ ctx, set }) => {
        if (!(await isOperator(ctx, deps))) throw forbidden();
        await requestBackup(deps);
        set.status = 202;
        return { queued: true };
      },
      {
        access: { role: "admin", keys: false },
        response: { 202: z.object({ queued: z.literal(true) }) },
        detail: {
          summary: "Take a backup now (the operator only)",
          description: "Runs `desk backup` into DESK_BACKUP_DIR in its own process; the run appears in GET /v1/system.",
        },
      },
    );
}
