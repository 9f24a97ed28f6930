import type { RequestContext } from "../auth/context";
import type { Tx } from "../db/database";
import { newId } from "../lib/ids";
import { preparedFor } from "../db/prepared";
import { deskClock } from "../db/desk-clock";
import { dbOf } from "../db/tx";

export type AuditEntry = {
  action: string;
  entityType: string;
  entityId?: string | null;
  data?: Record<string, unknown>;
};

const auditStatements = preparedFor((sqlite) => ({
  insert: sqlite.query<
    unknown,
    [string, string, string, string | null, string | null, string, string, string | null, string, string | null, string]
  >(
    "INSERT INTO audit_logs (id, workspace_id, actor_type, actor_user_id, actor_api_key_id, action, entity_type, entity_id, data, ip, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ),
}));

/**
 * Records who changed what, in the change's own transaction. A statement prepared once per
 * connection: drizzle would build this insert's SQL text on every call.
 */
export async function recordAudit(tx: Tx, ctx: RequestContext, entry: AuditEntry): Promise<void> {
  const actor = ctx.actor;
  const system = actor.type === "api_key" && actor.apiKeyId === "system";
  auditStatements(tx).insert.run(
    newId(),
    ctx.workspaceId,
    system ? "system" : actor.type,
    actor.type === "user" ? actor.userId : null,
    actor.type === "api_key" && !system ? actor.apiKeyId : null,
    entry.action,
    entry.entityType,
    entry.entityId ?? null,
    JSON.stringify(entry.data ?? {}),
    ctx.ip,
    deskClock(dbOf(tx)).now().toISOString(),
  );
}
