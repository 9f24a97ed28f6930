import { z } from "zod";
import type { Db, Tx } from "../db/database";
import { deskState } from "../db/desk-state";
import { preparedFor } from "../db/prepared";
import { batchedWrite, transact } from "../db/tx";
import { eventsSql as E } from "../events/events.sql";
import { defineJob, Requeue, type JobContext } from "../jobs/define";
import { enqueue } from "../jobs/enqueue";
import { recordWebhookDelivery } from "../metrics/metrics";
import {
  ATTEMPT_TIMEOUT_MS,
  MAX_DELIVERY_ATTEMPTS,
  post,
  retryDelayMs,
  type DeliveryContext,
  type DeliveryDeps,
} from "./webhooks.post";

/**
 * Fairness. Each endpoint has at most ENDPOINT_SLOTS workers (jobs keyed per endpoint and slot),
 * each sending one delivery at a time, so an endpoint never has more than that many requests in
 * flight, and a workspace at most WORKSPACE_SHARE of the runner's slots (WORKER_CONCURRENCY). A
 * worker runs for at most RUN_BUDGET_MS of sends, then goes to the back of the queue: endpoints
 * take turns, and one that hangs holds two slots, never the runner.
 */
export const ENDPOINT_SLOTS = 2;
export const WORKER_CONCURRENCY = 32;
export const WORKSPACE_SHARE = 8;
export const RUN_BUDGET_MS = 2_000;
const MAX_SENDS_PER_RUN = 50;
/** A worker turned away by its workspace's share looks again after this long, or as soon as a send of that workspace ends. */
const SHARE_WAIT_MS = 5_000;

/**
 * Circuit breaker. After CIRCUIT_THRESHOLD failed attempts in a row (errors, timeouts, non-2xx) the
 * endpoint is paused: its deliveries wait, spending no attempt and holding no worker. The pause
 * doubles with every further failure from 1 minute up to 1 hour; when it ends, the next attempts
 * probe the endpoint, and one success closes the circuit.
 */
export const CIRCUIT_THRESHOLD = 5;
export const CIRCUIT_BASE_PAUSE_MS = 60_000;
export const CIRCUIT_MAX_PAUSE_MS = 3_600_000;

export function circuitPauseMs(failureStreak: number): number {
  if (failureStreak < CIRCUIT_THRESHOLD) return 0;
  return Math.min(CIRCUIT_MAX_PAUSE_MS, CIRCUIT_BASE_PAUSE_MS * 2 ** Math.min(20, failureStreak - CIRCUIT_THRESHOLD));
}

type Flight = {
  /** Deliveries being sent now: two workers of one endpoint never take the same one. */
  deliveries: Set<string>;
  /** Sends in progress per workspace. */
  byWorkspace: Map<string, number>;
  /** Workers of each workspace turned away by its share, woken when a send of it ends. */
  waiting: Map<string, Map<string, { webhookId: string; slot: number }>>;
  /** Endpoints known paused (ms epoch), so fan-out queues their workers after the pause. */
  pausedUntil: Map<string, number>;
};
export const flightOf = deskState<Flight>("webhooks.flight", () => ({
  deliveries: new Set(),
  byWorkspace: new Map(),
  waiting: new Map(),
  pausedUntil: new Map(),
}));

const workerKey = (webhookId: string, slot: number) => `webhooks.endpoint:${webhookId}:${slot}`;

const EndpointPayload = z.object({
  webhook_id: z.string(),
  slot: z
    .number()
    .int()
    .min(0)
    .max(ENDPOINT_SLOTS - 1),
});

/**
 * Makes sure an endpoint's worker will run by `at` (now by default): enqueued when none is waiting,
 * moved up when one waits for later. A second slot starts only when the first already has work, so
 * a quiet endpoint costs one job per delivery.
 */
export async function wakeEndpoint(tx: Tx, webhookId: string, workspaceId: string, at?: Date): Promise<void> {
  for (let slot = 0; slot < ENDPOINT_SLOTS; slot++) {
    const created = await enqueue(
      tx,
      endpointWorkerJob,
      { webhook_id: webhookId, slot },
      { uniqueKey: workerKey(webhookId, slot), workspaceId, runAt: at, sooner: true, maxAttempts: 50 },
    );
    if (created) return;
  }
}

type Endpoint = { id: string; workspace_id: string; failure_streak: number; paused_until: string | null };

const statements = preparedFor((sqlite) => ({
  endpoint: sqlite.query<Endpoint, [string]>(
    "SELECT id, workspace_id, failure_streak, paused_until FROM webhooks WHERE id = ?",
  ),
  nextDue: sqlite.query<{ id: string }, [string, string]>(
    `SELECT id FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending' AND next_attempt_at <= ?
     ORDER BY next_attempt_at LIMIT ${ENDPOINT_SLOTS + 1}`,
  ),
  nextLater: sqlite.query<{ at: string | null }, [string]>(
    "SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending'",
  ),
  load: sqlite.query<DeliveryContext & { attempts: number }, [string]>(
    `SELECT d.status, d.attempts, w.url, w.secret_sealed, e.${E.id} AS event_id, e.${E.seq}, e.${E.workspaceId}, e.${E.type}, e.${E.visibility}, e.${E.data}, e.${E.occurredAt}
     FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN ${E.table} e ON e.${E.id} = d.event_id WHERE d.id = ?`,
  ),
  expire: sqlite.query<unknown, [string, string]>(
    `UPDATE webhook_deliveries SET status = 'failed', last_error = 'the event is no longer kept', next_attempt_at = NULL,
     updated_at = ? WHERE id = ? AND status = 'pending'`,
  ),
  record: sqlite.query<
    unknown,
    [string, number, number | null, number, string | null, string | null, string | null, string, string]
  >(
    `UPDATE webhook_deliveries SET status = ?, attempts = ?, response_code = ?, duration_ms = ?, response_excerpt = ?, last_error = ?,
     next_attempt_at = ?, updated_at = ? WHERE id = ?`,
  ),
  healthy: sqlite.query<unknown, [string]>(
    "UPDATE webhooks SET failure_streak = 0, paused_until = NULL WHERE id = ? AND (failure_streak > 0 OR paused_until IS NOT NULL)",
  ),
  failed: sqlite.query<{ failure_streak: number }, [string]>(
    "UPDATE webhooks SET failure_streak = failure_streak + 1 WHERE id = ? RETURNING failure_streak",
  ),
  pause: sqlite.query<unknown, [string, string]>("UPDATE webhooks SET paused_until = ? WHERE id = ?"),
  pendingEndpoints: sqlite.query<{ webhook_id: string; workspace_id: string }, [string]>(
    `SELECT DISTINCT d.webhook_id, d.workspace_id FROM webhook_deliveries d
     WHERE d.status = 'pending' AND d.next_attempt_at <= ? LIMIT 1000`,
  ),
}));

/** Sends one delivery, records the outcome and moves the endpoint's circuit. */
async function sendOne(deps: DeliveryDeps, endpoint: Endpoint, deliveryId: string, run: JobContext<DeliveryDeps>) {
  const { load, expire, record, healthy, failed, pause } = statements(deps.db);
  const ctx = load.get(deliveryId);
  if (!ctx) {
    // The event was pruned (EVENT_RETENTION): nothing is left to send.
    await batchedWrite(deps.db, () => {
      expire.run(deps.clock.now().toISOString(), deliveryId);
    });
    return;
  }
  if (ctx.status !== "pending") return;
  const attempt = await post(deps, ctx, run.signal);
  const now = deps.clock.now();
  const attempts = ctx.attempts + 1;
  if (attempt.ok) {
    await batchedWrite(deps.db, async () => {
      record.run(
        "succeeded",
        attempts,
        attempt.code,
        attempt.ms,
        attempt.excerpt,
        null,
        null,
        now.toISOString(),
        deliveryId,
      );
      healthy.run(endpoint.id);
    });
    if (endpoint.failure_streak > 0)
      run.logger.info(
        { webhook_id: endpoint.id, workspace_id: endpoint.workspace_id },
        "webhook endpoint answers again",
      );
    flightOf(deps.db).pausedUntil.delete(endpoint.id);
    recordWebhookDelivery("succeeded");
    return;
  }
  const final = attempts >= MAX_DELIVERY_ATTEMPTS;
  const next = final ? null : new Date(now.getTime() + retryDelayMs(attempts)).toISOString();
  let streak = 0;
  await batchedWrite(deps.db, async () => {
    record.run(
      final ? "failed" : "pending",
      attempts,
      attempt.code,
      attempt.ms,
      attempt.excerpt,
      attempt.error,
      next,
      now.toISOString(),
      deliveryId,
    );
    streak = failed.get(endpoint.id)?.failure_streak ?? 0;
    const pauseMs = circuitPauseMs(streak);
    if (pauseMs > 0) {
      const until = new Date(now.getTime() + pauseMs);
      pause.run(until.toISOString(), endpoint.id);
      flightOf(deps.db).pausedUntil.set(endpoint.id, until.getTime());
      run.logger.warn(
        {
          webhook_id: endpoint.id,
          workspace_id: endpoint.workspace_id,
          failure_streak: streak,
          paused_until: until.toISOString(),
          err: attempt.error,
        },
        "webhook endpoint paused after failing in a row (circuit open)",
      );
    }
  });
  recordWebhookDelivery(final ? "failed" : "retried");
}

/** Lets one worker its workspace's share turned away run again, now that a send of the workspace ended. */
async function wakeOneWaiting(deps: DeliveryDeps, workspaceId: string): Promise<void> {
  const waiting = flightOf(deps.db).waiting.get(workspaceId);
  const first = waiting?.entries().next().value;
  if (!waiting || !first) return;
  const [key, { webhookId, slot }] = first;
  waiting.delete(key);
  if (waiting.size === 0) flightOf(deps.db).waiting.delete(workspaceId);
  await transact(
    deps.db,
    async (tx) =>
      await enqueue(
        tx,
        endpointWorkerJob,
        { webhook_id: webhookId, slot },
        { uniqueKey: key, workspaceId, sooner: true, maxAttempts: 50 },
      ),
  );
}

/**
 * One worker of one endpoint: sends its due deliveries one at a time, oldest due first, until none
 * is due, its run budget is spent, the endpoint is paused or its workspace's share is taken; then
 * it queues itself again for when there is work (a retry's time, the pause's end) or ends.
 */
export const endpointWorkerJob = defineJob({
  name: "webhooks.endpoint",
  lane: "customer",
  schema: EndpointPayload,
  concurrency: WORKER_CONCURRENCY,
  retry: { maxAttempts: 50, baseDelayMs: 5_000, maxDelayMs: 300_000 },
  leaseMs: RUN_BUDGET_MS + ATTEMPT_TIMEOUT_MS + 30_000,
  async handler({ webhook_id, slot }, run: JobContext<DeliveryDeps>) {
    const { deps } = run;
    const flight = flightOf(deps.db);
    const { endpoint: endpointOf, nextDue, nextLater } = statements(deps.db);
    const started = performance.now();
    for (let sent = 0; sent < MAX_SENDS_PER_RUN; sent++) {
      const endpoint = endpointOf.get(webhook_id);
      // Deleted: its deliveries went with it.
      if (!endpoint) return;
      const now = deps.clock.now();
      const pausedFor = endpoint.paused_until ? new Date(endpoint.paused_until).getTime() - now.getTime() : 0;
      if (pausedFor > 0) {
        flight.pausedUntil.set(webhook_id, now.getTime() + pausedFor);
        throw new Requeue(pausedFor);
      }
      const workspace = endpoint.workspace_id;
      if ((flight.byWorkspace.get(workspace) ?? 0) >= WORKSPACE_SHARE) {
        const waiting = flight.waiting.get(workspace) ?? new Map();
        waiting.set(workerKey(webhook_id, slot), { webhookId: webhook_id, slot });
        flight.waiting.set(workspace, waiting);
        throw new Requeue(SHARE_WAIT_MS);
      }
      const dueRows = nextDue.all(webhook_id, now.toISOString());
      const due = dueRows.find((d) => !flight.deliveries.has(d.id));
      if (!due) {
        // What is due is being sent by the other slot's worker, which carries on (and comes back for retries).
        if (dueRows.length > 0) return;
        const later = nextLater.get(webhook_id)?.at;
        if (!later) return;
        throw new Requeue(new Date(later).getTime() - now.getTime());
      }
      flight.deliveries.add(due.id);
      flight.byWorkspace.set(workspace, (flight.byWorkspace.get(workspace) ?? 0) + 1);
      try {
        await sendOne(deps, endpoint, due.id, run);
      } finally {
        flight.deliveries.delete(due.id);
        const left = (flight.byWorkspace.get(workspace) ?? 1) - 1;
        if (left > 0) flight.byWorkspace.set(workspace, left);
        else flight.byWorkspace.delete(workspace);
        await wakeOneWaiting(deps, workspace);
      }
      if (run.signal.aborted) return;
      if (performance.now() - started >= RUN_BUDGET_MS) throw new Requeue(0);
    }
    throw new Requeue(0);
  },
});

/**
 * A safety net, every minute: every endpoint with due deliveries has a worker queued (one whose
 * job failed for good, or deliveries left by an older release, are picked up again).
 */
export const sweepEndpointsJob = defineJob({
  name: "webhooks.sweep",
  schema: z.object({}),
  schedule: "* * * * *",
  async handler(_payload, run: JobContext<DeliveryDeps>) {
    const { deps } = run;
    const rows = statements(deps.db).pendingEndpoints.all(deps.clock.now().toISOString());
    if (rows.length === 0) return;
    await transact(deps.db, async (tx) => {
      for (const row of rows) await wakeEndpoint(tx, row.webhook_id, row.workspace_id);
    });
  },
});

/** Fan-out's view of a pause, so a paused endpoint's worker is queued for the pause's end. */
export function pausedUntilOf(db: Db, webhookId: string, nowMs: number): Date | undefined {
  const map = flightOf(db).pausedUntil;
  const until = map.get(webhookId);
  if (until === undefined) return undefined;
  if (until <= nowMs) {
    map.delete(webhookId);
    return undefined;
  }
  return new Date(until);
}
