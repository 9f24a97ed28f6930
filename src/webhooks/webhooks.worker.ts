import { z } from "zod";
import type { Db, Tx } from "../db/database";
import { deskState } from "../db/desk-state";
import { batchedWrite, transact } from "../db/tx";
import { defineJob, Requeue, type JobContext } from "../jobs/define";
import { enqueue } from "../jobs/enqueue";
import { recordWebhookDelivery } from "../metrics/metrics";
import { ATTEMPT_TIMEOUT_MS, MAX_DELIVERY_ATTEMPTS, post, retryDelayMs, type DeliveryDeps } from "./webhooks.post";
import { type EndpointState, webhookStatements } from "./webhooks.statements";

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

/** Sends one delivery, records the outcome and moves the endpoint's circuit. */
async function sendOne(deps: DeliveryDeps, endpoint: EndpointState, deliveryId: string, run: JobContext<DeliveryDeps>) {
  const statements = webhookStatements(deps.db);
  const ctx = await statements.deliveryContext(deliveryId);
  if (!ctx) {
    // The event was pruned (EVENT_RETENTION): nothing is left to send.
    await batchedWrite(deps.db, async () => {
      await statements.expire(deliveryId, deps.clock.now().toISOString());
    });
    return;
  }
  if (ctx.status !== "pending") return;
  const attempt = await post(deps, ctx, run.signal);
  const now = deps.clock.now();
  const attempts = ctx.attempts + 1;
  if (attempt.ok) {
    await batchedWrite(deps.db, async () => {
      await statements.recordAttempt(deliveryId, {
        status: "succeeded",
        attempts,
        code: attempt.code,
        ms: attempt.ms,
        excerpt: attempt.excerpt,
        error: null,
        nextAttemptAt: null,
        at: now.toISOString(),
      });
      await statements.markHealthy(endpoint.id);
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
    await statements.recordAttempt(deliveryId, {
      status: final ? "failed" : "pending",
      attempts,
      code: attempt.code,
      ms: attempt.ms,
      excerpt: attempt.excerpt,
      error: attempt.error,
      nextAttemptAt: next,
      at: now.toISOString(),
    });
    streak = await statements.countFailure(endpoint.id);
    const pauseMs = circuitPauseMs(streak);
    if (pauseMs > 0) {
      const until = new Date(now.getTime() + pauseMs);
      await statements.pause(endpoint.id, until.toISOString());
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
    const statements = webhookStatements(deps.db);
    const started = performance.now();
    for (let sent = 0; sent < MAX_SENDS_PER_RUN; sent++) {
      const endpoint = await statements.endpoint(webhook_id);
      // Deleted: its deliveries went with it.
      if (!endpoint) return;
      const now = deps.clock.now();
      const pausedFor = endpoint.paused_until ? new Date(endpoint.paused_until).getTime() - now.getTime() : 0;
      if (pausedFor > 0) {
        flight.pausedUntil.set(webhook_id, now.getTime() + pausedFor);
        throw new Requeue(pausedFor);
      }
      const workspace = endpoint.workspace_id;
      const waitForShare = () => {
        if ((flight.byWorkspace.get(workspace) ?? 0) < WORKSPACE_SHARE) return;
        const waiting = flight.waiting.get(workspace) ?? new Map();
        waiting.set(workerKey(webhook_id, slot), { webhookId: webhook_id, slot });
        flight.waiting.set(workspace, waiting);
        throw new Requeue(SHARE_WAIT_MS);
      };
      waitForShare();
      const dueIds = await statements.nextDue(webhook_id, now.toISOString(), ENDPOINT_SLOTS + 1);
      const due = dueIds.find((id) => !flight.deliveries.has(id));
      if (!due) {
        // What is due is being sent by the other slot's worker, which carries on (and comes back for retries).
        if (dueIds.length > 0) return;
        const later = await statements.nextLater(webhook_id);
        if (!later) return;
        throw new Requeue(new Date(later).getTime() - now.getTime());
      }
      // Again after the read's await, with no await until the count below: other workers of the
      // workspace ran meanwhile and may have taken its last share.
      waitForShare();
      flight.deliveries.add(due);
      flight.byWorkspace.set(workspace, (flight.byWorkspace.get(workspace) ?? 0) + 1);
      try {
        await sendOne(deps, endpoint, due, run);
      } finally {
        flight.deliveries.delete(due);
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
    const rows = await webhookStatements(deps.db).pendingEndpoints(deps.clock.now().toISOString());
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
