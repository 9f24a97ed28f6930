import type { RequestContext } from "../auth/context";
import type { Tx } from "../db/database";
import { newId } from "../lib/ids";
import { auditStatements } from "./audit.statements";
import { deskClock } from "../db/desk-clock";
import { dbOf } from "../db/tx";

export type AuditEntry = {
  action: string;
  entityType: string;
  entityId?: string | null;
  data?: Record<string, unknown>;
};

/** Records who changed what, in the change's own transaction. */
export function recordAudit(tx: Tx, ctx: RequestContext, entry: AuditEntry): Promise<void> {
  const actor = ctx.actor;
  const system = actor.type === "api_key" && actor.apiKeyId === "system";
  return auditStatements(tx).insert({
    id: newId(),
    workspaceId: ctx.workspaceId,
    actorType: system ? "system" : actor.type,
    actorUserId: actor.type === "user" ? actor.userId : null,
    actorApiKeyId: actor.type === "api_key" && !system ? actor.apiKeyId : null,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId ?? null,
    dataJson: JSON.stringify(entry.data ?? {}),
    ip: ctx.ip,
    createdAt: deskClock(dbOf(tx)).now().toISOString(),
  });
}
