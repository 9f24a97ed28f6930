import { and, desc, eq, gte, lt, or } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { decodeCursor, pageOf } from "../db/cursor";
import type { Queryable } from "../db/database";
import { defineRead } from "../db/read-pool";
import { userRefsOf } from "../identity/identity.public";
import { presentAuditLog } from "./audit.present";
import type { AuditLogQueryInput } from "./audit.schemas";
import { auditLogs } from "./audit.table";

/** Normalises an RFC 3339 time to the stored UTC ISO form so text comparison is time comparison. */
const utc = (ts: string) => new Date(ts).toISOString();

/** The workspace's audit log, newest first, keyset-paged, with optional filters. */
export async function listAuditLogs(ctx: RequestContext, query: AuditLogQueryInput, deps: { db: Queryable }) {
  const after = decodeCursor(query.cursor, 2);
  const rows = await deps.db
    .select()
    .from(auditLogs)
    .where(
      and(
        eq(auditLogs.workspaceId, ctx.workspaceId),
        query.action ? eq(auditLogs.action, query.action) : undefined,
        query.entity_type ? eq(auditLogs.entityType, query.entity_type) : undefined,
        query.entity_id ? eq(auditLogs.entityId, query.entity_id) : undefined,
        query.actor_user_id ? eq(auditLogs.actorUserId, query.actor_user_id) : undefined,
        query.from ? gte(auditLogs.createdAt, utc(query.from)) : undefined,
        query.to ? lt(auditLogs.createdAt, utc(query.to)) : undefined,
        after
          ? or(
              lt(auditLogs.createdAt, String(after[0])),
              and(eq(auditLogs.createdAt, String(after[0])), lt(auditLogs.id, String(after[1]))),
            )
          : undefined,
      ),
    )
    .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
    .limit(query.limit + 1);
  const userIds = [...new Set(rows.map((r) => r.actorUserId).filter((id): id is string => !!id))];
  const refs = await userRefsOf(deps.db, userIds);
  return await pageOf(
    rows,
    query.limit,
    (r) => presentAuditLog(r, r.actorUserId ? (refs.get(r.actorUserId) ?? null) : null),
    (r) => [r.createdAt, r.id],
  );
}

/** The list on a read pool worker: filters other than the workspace may walk its whole log. */
export const auditListRead = defineRead(
  "audit.list",
  async (db, p: { ctx: RequestContext; query: AuditLogQueryInput }) => await listAuditLogs(p.ctx, p.query, { db }),
);
