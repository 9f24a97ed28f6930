import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";
import { onEventsCommitted } from "../events/bus";
import { webhookCreated, webhookDeleted, webhookUpdated } from "./webhooks.events";
import { webhookStatements } from "./webhooks.statements";

/** What fan-out needs to know about an endpoint, cached per workspace so event writes stay fast. */
export type CachedWebhook = { id: string; events: Set<string> | "all"; teamIds: Set<string>; enabled: boolean };

/** Each desk's endpoints by workspace id, on its runtime. */
export type WebhookCache = Map<string, CachedWebhook[]>;
export const webhookCacheOf = deskState<WebhookCache>("webhooks.cache", () => new Map());

/**
 * The workspace's endpoints, from the desk's cache (`webhookCacheOf(db)`, taken once by the caller).
 * A miss reads on the one connection, so inside a transaction it sees that transaction's own
 * uncommitted changes.
 */
export async function webhooksOf(db: Db, cache: WebhookCache, workspaceId: string): Promise<CachedWebhook[]> {
  const hit = cache.get(workspaceId);
  if (hit) return hit;
  const rows = await webhookStatements(db).endpointsOf(workspaceId);
  const list = rows.map((r) => {
    const events = JSON.parse(r.events) as string[];
    return {
      id: r.id,
      events: events.includes("*") ? ("all" as const) : new Set(events),
      teamIds: new Set(JSON.parse(r.team_ids) as string[]),
      enabled: r.enabled === 1,
    };
  });
  cache.set(workspaceId, list);
  return list;
}

/**
 * Forgets a workspace's endpoints. Services call it when the change starts (so events in the same
 * transaction see it) and again once it has committed or rolled back (so no half-state stays).
 */
export function invalidateWebhooks(db: Db, workspaceId: string): void {
  webhookCacheOf(db).delete(workspaceId);
}

const ENDPOINT_CHANGES = new Set<string>([webhookCreated.type, webhookUpdated.type, webhookDeleted.type]);

/**
 * Forgets a workspace's endpoints when a change to them is published, whichever node made it: on
 * PostgreSQL the other nodes' events reach `onEventsCommitted` through the event feed
 * (src/events/feed.ts), so every node's cache follows within the feed's delay. (The node that made
 * the change has already forgotten them in the change.)
 */
export function forgetEndpointsOnChange(db: Db): () => void {
  return onEventsCommitted(db, (events) => {
    for (const event of events) if (ENDPOINT_CHANGES.has(event.type)) invalidateWebhooks(db, event.workspace_id);
  });
}
