import { Elysia } from "elysia";
import { READ_POOL_NOTE } from "../db/read-pool";
import type { Deps } from "../deps";
import { auditListRead } from "./audit.list";
import { AuditLogPage, AuditLogQuery } from "./audit.schemas";

export function auditRoutes(deps: Deps) {
  return new Elysia({ prefix: "/audit-logs", tags: ["audit"] })
    .use(deps.guard)
    .get("/", ({ ctx, query }) => deps.reads.run(auditListRead, ctx.workspaceId, { ctx, query }), {
      access: { role: "admin", scopes: ["settings:read"] },
      query: AuditLogQuery,
      response: { 200: AuditLogPage },
      detail: {
        summary:
          "Audit log, newest first; filters action, entity_type, entity_id, actor_user_id, from (inclusive), to (exclusive)",
        description: READ_POOL_NOTE,
      },
    });
}
