import { z } from "zod";
import type { Db, Tx } from "../db/database";
import { deskClock } from "../db/desk-clock";
import { preparedFor } from "../db/prepared";
import { batchedWrite } from "../db/tx";
import { onEveryEvent } from "../events/bus";
import type { StoredEvent } from "../events/envelope";
import { defineJob, type JobContext } from "../jobs/define";
import { runnerNow } from "../jobs/enqueue";
import { newId } from "../lib/ids";
import { webhookCacheOf, webhooksOf, type CachedWebhook } from "./webhooks.cache";
import type { DeliveryDeps } from "./webhooks.post";
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
  const insert = db.$client.query<unknown, [string, string, string, string, string, string, string, string]>(
    `INSERT INTO webhook_deliveries (id, workspace_id, webhook_id, event_id, event_type, status, attempts, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
  );
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
      insert.run(newId(), event.workspace_id, webhook.id, event.id, event.type, due, now, now);
      await wakeEndpoint(tx, webhook.id, event.workspace_id, pausedUntilOf(db, webhook.id, dueAt.getTime()));
    }
  };
  // Every event of every workspace passes here: a workspace known to have no endpoint costs a lookup.
  return onEveryEvent(db, (tx: Tx, event: StoredEvent) =>
    cache.get(event.workspace_id)?.length === 0 ? undefined : fanOut(tx, event),
  );
}

const legacyStatements = preparedFor((sqlite) => ({
  load: sqlite.query<{ webhook_id: string; workspace_id: string }, [string]>(
    "SELECT webhook_id, workspace_id FROM webhook_deliveries WHERE id = ? AND status = 'pending'",
  ),
  due: sqlite.query<unknown, [string, string]>(
    "UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ? AND next_attempt_at IS NULL",
  ),
}));

/**
 * The job of earlier releases, one per delivery: such jobs still queued when this release starts
 * hand their delivery to its endpoint's worker (due now if it had no time) and end.
 */
export const deliverWebhookJob = defineJob({
  name: "webhooks.deliver",
  schema: z.object({ delivery_id: z.string() }),
  async handler({ delivery_id }, run: JobContext<DeliveryDeps>) {
    const { deps } = run;
    const { load, due } = legacyStatements(deps.db);
    const row = load.get(delivery_id);
    if (!row) return;
    // The wake-up is part of the batched write's change (its tx), as it was nested in it before.
    await batchedWrite(deps.db, async (tx) => {
      due.run(deps.clock.now().toISOString(), delivery_id);
      await wakeEndpoint(tx, row.webhook_id, row.workspace_id);
    });
  },
});
