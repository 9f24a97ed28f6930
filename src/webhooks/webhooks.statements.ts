import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { sqliteOf } from "../db/sqlite/prepared";
import { eventsSql as E } from "../events/events.sql";
import type { DeliveryContext } from "./webhooks.post";

/** An endpoint as fan-out caches it: its subscribed types and granted teams still as stored JSON. */
export type StoredEndpoint = { id: string; events: string; team_ids: string; enabled: number };

/** An endpoint as its worker reads it: its circuit's state. */
export type EndpointState = { id: string; workspace_id: string; failure_streak: number; paused_until: string | null };

/** A new pending delivery, due at `dueAt`; `at` is its created_at and updated_at. */
export type NewDelivery = {
  id: string;
  workspaceId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  dueAt: string;
  at: string;
};

/** The outcome of one attempt: the delivery's status, figures and when it is due again (null: never). */
export type AttemptRecord = {
  status: "succeeded" | "pending" | "failed";
  attempts: number;
  code: number | null;
  ms: number;
  excerpt: string | null;
  error: string | null;
  nextAttemptAt: string | null;
  at: string;
};

/** An endpoint with a worker to wake, and its workspace. */
export type PendingEndpoint = { webhook_id: string; workspace_id: string };

/**
 * The webhooks' statements: fan-out's cache fill and delivery insert (in every event's
 * transaction), and the endpoint workers' queue and circuit. Prepared once per connection. The SQL
 * is portable; PostgreSQL's twin differs in its column types only (`enabled` a boolean, the events
 * and team lists `jsonb`), answering the same shapes, and with several processes a worker's
 * `nextDue` read may take `FOR UPDATE SKIP LOCKED` so two nodes pass over each other's deliveries.
 */
export interface WebhookStatements {
  /** The workspace's endpoints, enabled or not, as stored. */
  endpointsOf(workspaceId: string): Promise<StoredEndpoint[]>;
  /** Stores a pending delivery. */
  insertDelivery(delivery: NewDelivery): Promise<void>;
  /** The endpoint's circuit state, or undefined when it is gone. */
  endpoint(webhookId: string): Promise<EndpointState | undefined>;
  /** The endpoint's pending deliveries due by `now`, oldest due first, at most `limit`. */
  nextDue(webhookId: string, now: string, limit: number): Promise<string[]>;
  /** When the endpoint's next pending delivery is due, or null when none waits. */
  nextLater(webhookId: string): Promise<string | null>;
  /** What sending a delivery needs (endpoint, event), or undefined when its event was pruned. */
  deliveryContext(deliveryId: string): Promise<(DeliveryContext & { attempts: number }) | undefined>;
  /** Fails a still-pending delivery whose event is no longer kept. */
  expire(deliveryId: string, at: string): Promise<void>;
  /** Records an attempt's outcome on the delivery. */
  recordAttempt(deliveryId: string, attempt: AttemptRecord): Promise<void>;
  /** Closes the endpoint's circuit (no failures, no pause). */
  markHealthy(webhookId: string): Promise<void>;
  /** Counts a failed attempt of the endpoint; answers its failure streak. */
  countFailure(webhookId: string): Promise<number>;
  /** Pauses the endpoint until `until`. */
  pause(webhookId: string, until: string): Promise<void>;
  /** Endpoints with pending deliveries due by `now` (at most 1000). */
  pendingEndpoints(now: string): Promise<PendingEndpoint[]>;
  /** An earlier release's pending delivery: its endpoint and workspace, or undefined. */
  legacyDelivery(deliveryId: string): Promise<PendingEndpoint | undefined>;
  /** Makes an earlier release's delivery due at `at` when it has no time. */
  dueLegacy(deliveryId: string, at: string): Promise<void>;
}

function prepareWebhookQueries(db: Queryable) {
  const sqlite = sqliteOf(db);
  return {
    endpoints: sqlite.query<StoredEndpoint, [string]>(
      "SELECT id, events, team_ids, enabled FROM webhooks WHERE workspace_id = ?",
    ),
    insert: sqlite.query<unknown, [string, string, string, string, string, string, string, string]>(
      `INSERT INTO webhook_deliveries (id, workspace_id, webhook_id, event_id, event_type, status, attempts, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
    ),
    endpoint: sqlite.query<EndpointState, [string]>(
      "SELECT id, workspace_id, failure_streak, paused_until FROM webhooks WHERE id = ?",
    ),
    // The limit is written into the text, as it always was (one statement per limit: callers use one).
    nextDue: (limit: number) =>
      sqlite.query<{ id: string }, [string, string]>(
        `SELECT id FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending' AND next_attempt_at <= ?
     ORDER BY next_attempt_at LIMIT ${Math.trunc(limit)}`,
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
    pendingEndpoints: sqlite.query<PendingEndpoint, [string]>(
      `SELECT DISTINCT d.webhook_id, d.workspace_id FROM webhook_deliveries d
     WHERE d.status = 'pending' AND d.next_attempt_at <= ? LIMIT 1000`,
    ),
    legacyLoad: sqlite.query<PendingEndpoint, [string]>(
      "SELECT webhook_id, workspace_id FROM webhook_deliveries WHERE id = ? AND status = 'pending'",
    ),
    legacyDue: sqlite.query<unknown, [string, string]>(
      "UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ? AND next_attempt_at IS NULL",
    ),
  };
}

const sqliteWebhookStatements = (db: Queryable): WebhookStatements => {
  const q = prepareWebhookQueries(db);
  const nextDueByLimit = new Map<number, ReturnType<typeof q.nextDue>>();
  return {
    endpointsOf: async (workspaceId) => q.endpoints.all(workspaceId),
    insertDelivery: async (d) => {
      q.insert.run(d.id, d.workspaceId, d.webhookId, d.eventId, d.eventType, d.dueAt, d.at, d.at);
    },
    endpoint: async (webhookId) => q.endpoint.get(webhookId) ?? undefined,
    nextDue: async (webhookId, now, limit) => {
      let statement = nextDueByLimit.get(limit);
      if (!statement) {
        statement = q.nextDue(limit);
        nextDueByLimit.set(limit, statement);
      }
      return statement.all(webhookId, now).map((row) => row.id);
    },
    nextLater: async (webhookId) => q.nextLater.get(webhookId)?.at ?? null,
    deliveryContext: async (deliveryId) => q.load.get(deliveryId) ?? undefined,
    expire: async (deliveryId, at) => {
      q.expire.run(at, deliveryId);
    },
    recordAttempt: async (deliveryId, a) => {
      q.record.run(a.status, a.attempts, a.code, a.ms, a.excerpt, a.error, a.nextAttemptAt, a.at, deliveryId);
    },
    markHealthy: async (webhookId) => {
      q.healthy.run(webhookId);
    },
    countFailure: async (webhookId) => q.failed.get(webhookId)?.failure_streak ?? 0,
    pause: async (webhookId, until) => {
      q.pause.run(until, webhookId);
    },
    pendingEndpoints: async (now) => q.pendingEndpoints.all(now),
    legacyDelivery: async (deliveryId) => q.legacyLoad.get(deliveryId) ?? undefined,
    dueLegacy: async (deliveryId, at) => {
      q.legacyDue.run(at, deliveryId);
    },
  };
};

export const webhookStatements = dialectStatements<WebhookStatements>({ sqlite: sqliteWebhookStatements });
