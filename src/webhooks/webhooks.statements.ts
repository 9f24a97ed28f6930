import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
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
 * and team lists and the event's data `jsonb`, read as their JSON text), answering the same shapes,
 * and binds `nextDue`'s limit. With several processes a worker's `nextDue` read may take `FOR
 * UPDATE SKIP LOCKED` so two nodes pass over each other's deliveries.
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

// The SQL both engines share.
const INSERT = `INSERT INTO webhook_deliveries (id, workspace_id, webhook_id, event_id, event_type, status, attempts, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`;
const ENDPOINT = "SELECT id, workspace_id, failure_streak, paused_until FROM webhooks WHERE id = ?";
const NEXT_DUE = (limit: string, order: string) =>
  `SELECT id FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending' AND next_attempt_at <= ?
     ORDER BY ${order} LIMIT ${limit}`;
const NEXT_LATER =
  "SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending'";
const LOAD = (
  data: string,
) => `SELECT d.status, d.attempts, w.url, w.secret_sealed, e.${E.id} AS event_id, e.${E.seq}, e.${E.workspaceId}, e.${E.type}, e.${E.visibility}, ${data}, e.${E.occurredAt}
     FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN ${E.table} e ON e.${E.id} = d.event_id WHERE d.id = ?`;
const EXPIRE = `UPDATE webhook_deliveries SET status = 'failed', last_error = 'the event is no longer kept', next_attempt_at = NULL,
     updated_at = ? WHERE id = ? AND status = 'pending'`;
const RECORD = `UPDATE webhook_deliveries SET status = ?, attempts = ?, response_code = ?, duration_ms = ?, response_excerpt = ?, last_error = ?,
     next_attempt_at = ?, updated_at = ? WHERE id = ?`;
const HEALTHY =
  "UPDATE webhooks SET failure_streak = 0, paused_until = NULL WHERE id = ? AND (failure_streak > 0 OR paused_until IS NOT NULL)";
const FAILED = "UPDATE webhooks SET failure_streak = failure_streak + 1 WHERE id = ? RETURNING failure_streak";
const PAUSE = "UPDATE webhooks SET paused_until = ? WHERE id = ?";
const PENDING_ENDPOINTS = `SELECT DISTINCT d.webhook_id, d.workspace_id FROM webhook_deliveries d
     WHERE d.status = 'pending' AND d.next_attempt_at <= ? LIMIT 1000`;
const LEGACY_LOAD = "SELECT webhook_id, workspace_id FROM webhook_deliveries WHERE id = ? AND status = 'pending'";
const LEGACY_DUE = "UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ? AND next_attempt_at IS NULL";

type Attempt = [string, number, number | null, number, string | null, string | null, string | null, string, string];

function prepareWebhookQueries(db: Queryable) {
  const sqlite = sqliteOf(db);
  return {
    endpoints: sqlite.query<StoredEndpoint, [string]>(
      "SELECT id, events, team_ids, enabled FROM webhooks WHERE workspace_id = ?",
    ),
    insert: sqlite.query<unknown, [string, string, string, string, string, string, string, string]>(INSERT),
    endpoint: sqlite.query<EndpointState, [string]>(ENDPOINT),
    // The limit is written into the text, as it always was (one statement per limit: callers use one).
    nextDue: (limit: number) =>
      sqlite.query<{ id: string }, [string, string]>(NEXT_DUE(String(Math.trunc(limit)), "next_attempt_at")),
    nextLater: sqlite.query<{ at: string | null }, [string]>(NEXT_LATER),
    load: sqlite.query<DeliveryContext & { attempts: number }, [string]>(LOAD(`e.${E.data}`)),
    expire: sqlite.query<unknown, [string, string]>(EXPIRE),
    record: sqlite.query<unknown, Attempt>(RECORD),
    healthy: sqlite.query<unknown, [string]>(HEALTHY),
    failed: sqlite.query<{ failure_streak: number }, [string]>(FAILED),
    pause: sqlite.query<unknown, [string, string]>(PAUSE),
    pendingEndpoints: sqlite.query<PendingEndpoint, [string]>(PENDING_ENDPOINTS),
    legacyLoad: sqlite.query<PendingEndpoint, [string]>(LEGACY_LOAD),
    legacyDue: sqlite.query<unknown, [string, string]>(LEGACY_DUE),
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

const postgresWebhookStatements = (db: Queryable): WebhookStatements => {
  // The events and team lists as their JSON text (`#>> '{}'`) and the flag as 0/1: the shapes the
  // SQLite side answers.
  const endpoints = postgresQuery<StoredEndpoint, [string]>(
    db,
    `SELECT id, events #>> '{}' AS events, team_ids #>> '{}' AS team_ids, enabled::int AS enabled
     FROM webhooks WHERE workspace_id = ?`,
  );
  const insert = postgresQuery<unknown, [string, string, string, string, string, string, string, string]>(db, INSERT);
  const endpoint = postgresQuery<EndpointState, [string]>(db, ENDPOINT);
  // The limit is a parameter here (one statement for every limit). Deliveries due at the same time
  // go in the order they were made, as SQLite's index gives them (its rowid; here the UUIDv7 id).
  const nextDue = postgresQuery<{ id: string }, [string, string, number]>(
    db,
    NEXT_DUE("?", `next_attempt_at, id COLLATE "C"`),
  );
  const nextLater = postgresQuery<{ at: string | null }, [string]>(db, NEXT_LATER);
  // The event's data as its JSON text, written out again as the SQLite side stores it: compact.
  const load = postgresQuery<DeliveryContext & { attempts: number }, [string]>(
    db,
    LOAD(`e.${E.data} #>> '{}' AS data`),
  );
  const expire = postgresQuery<unknown, [string, string]>(db, EXPIRE);
  const record = postgresQuery<unknown, Attempt>(db, RECORD);
  const healthy = postgresQuery<unknown, [string]>(db, HEALTHY);
  const failed = postgresQuery<{ failure_streak: number }, [string]>(db, FAILED);
  const pause = postgresQuery<unknown, [string, string]>(db, PAUSE);
  const pendingEndpoints = postgresQuery<PendingEndpoint, [string]>(db, PENDING_ENDPOINTS);
  const legacyLoad = postgresQuery<PendingEndpoint, [string]>(db, LEGACY_LOAD);
  const legacyDue = postgresQuery<unknown, [string, string]>(db, LEGACY_DUE);
  return {
    endpointsOf: (workspaceId) => endpoints.all(workspaceId),
    insertDelivery: (d) => insert.run(d.id, d.workspaceId, d.webhookId, d.eventId, d.eventType, d.dueAt, d.at, d.at),
    endpoint: async (webhookId) => (await endpoint.get(webhookId)) ?? undefined,
    nextDue: async (webhookId, now, limit) =>
      (await nextDue.all(webhookId, now, Math.trunc(limit))).map((row) => row.id),
    nextLater: async (webhookId) => (await nextLater.get(webhookId))?.at ?? null,
    deliveryContext: async (deliveryId) => {
      const row = await load.get(deliveryId);
      return row ? { ...row, data: JSON.stringify(JSON.parse(row.data)) } : undefined;
    },
    expire: (deliveryId, at) => expire.run(at, deliveryId),
    recordAttempt: (deliveryId, a) =>
      record.run(a.status, a.attempts, a.code, a.ms, a.excerpt, a.error, a.nextAttemptAt, a.at, deliveryId),
    markHealthy: (webhookId) => healthy.run(webhookId),
    countFailure: async (webhookId) => (await failed.get(webhookId))?.failure_streak ?? 0,
    pause: (webhookId, until) => pause.run(until, webhookId),
    pendingEndpoints: (now) => pendingEndpoints.all(now),
    legacyDelivery: async (deliveryId) => (await legacyLoad.get(deliveryId)) ?? undefined,
    dueLegacy: (deliveryId, at) => legacyDue.run(at, deliveryId),
  };
};

export const webhookStatements = dialectStatements<WebhookStatements>({
  sqlite: sqliteWebhookStatements,
  postgres: postgresWebhookStatements,
});
