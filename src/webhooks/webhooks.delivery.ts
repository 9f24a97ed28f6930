import { z } from "zod";
import type { Db, Tx } from "../db/database";
import { deskClock } from "../db/desk-clock";
import { batchedWrite } from "../db/tx";
import { onEveryEvent } from "../events/bus";
import type { StoredEvent } from "../events/envelope";
import { defineJob, type JobContext } from "../jobs/define";
import { runnerNow } from "../jobs/enqueue";
import { newId } from "../lib/ids";
import { webhookCacheOf, webhooksOf, type CachedWebhook } from "./webhooks.cache";
import type { DeliveryDeps } from "./webhooks.post";
import { webhookStatements } from "./webhooks.statements";
import { pausedUntilOf, wakeEndpoint } from "./webhooks.worker";

/** Whether an endpoint gets this event: type subscribed, private teams granted, tests to their target only. */
export function wantsEvent(webhook: CachedWebhook, event: StoredEvent): boolean {
  if (event.type === "webhook.test") {
    const target = (event.data.webhook as { id?: string } | undefined)?.id;
    return target === webhook.id;
  }
  if (!webhook.enabled || event.type === "event.hidden") return false;
  if (webhook.events !== "all" && !webhook.events.has(event.type)) return false;
  return event.private_team_id === null || webhook.teamIds.has(event.private_team_id);
}

/**
 * Inside each event's own transaction: one delivery row per interested endpoint, due at once, and
 * that endpoint's worker woken, so a delivery exists exactly when its event does and survives any
 * crash. Deliveries wait in their table, not as one job each: the endpoint's workers take them in
 * turn (webhooks.worker.ts), which keeps one endpoint from filling the job runner.
 */
export function registerWebhookFanOut(db: Db): () => void {
  // Built once here, as the insert was prepared once: fan-out runs in every event's transaction.
  const statements = webhookStatements(db);
  const cache = webhookCacheOf(db);
  const fanOut = async (tx: Tx, event: StoredEvent) => {
    const endpoints = await webhooksOf(db, cache, event.workspace_id);
    if (endpoints.length === 0) return;
    const now = deskClock(db).now().toISOString();
    // Due by the job runner's clock, the one the workers compare with.
    const dueAt = runnerNow(db);
    const due = dueAt.toISOString();
    for (const webhook of endpoints) {
      if (!wantsEvent(webhook, event)) continue;
      await statements.insertDelivery({
        id: newId(),
        workspaceId: event.workspace_id,
        webhookId: webhook.id,
        eventId: event.id,
        eventType: event.type,
        dueAt: due,
        at: now,
      });
      await wakeEndpoint(tx, webhook.id, event.workspace_id, pausedUntilOf(db, webhook.id, dueAt.getTime()));
    }
  };
  // Every event of every workspace passes here: a workspace known to have no endpoint costs a lookup.
  return onEveryEvent(db, (tx: Tx, event: StoredEvent) =>
    cache.get(event.workspace_id)?.length === 0 ? undefined : fanOut(tx, event),
  );
}

/**
 * The job of earlier releases, one per delivery: such jobs still queued when this release starts
 * hand their delivery to its endpoint's worker (due now if it had no time) and end.
 */
export const deliverWebhookJob = defineJob({
  name: "webhooks.deliver",
  schema: z.object({ delivery_id: z.string() }),
  async handler({ delivery_id }, run: JobContext<DeliveryDeps>) {
    const { deps } = run;
    const statements = webhookStatements(deps.db);
    const row = await statements.legacyDelivery(delivery_id);
    if (!row) return;
    // The wake-up is part of the batched write's change (its tx), as it was nested in it before.
    await batchedWrite(deps.db, async (tx) => {
      await statements.dueLegacy(delivery_id, deps.clock.now().toISOString());
      await wakeEndpoint(tx, row.webhook_id, row.workspace_id);
    });
  },
});
