import { z } from "zod";
import type { Config } from "../config/config";
import type { Db, Tx } from "../db/database";
import { batchedWrite } from "../db/tx";
import { onEventInTransaction } from "../events/bus";
import type { StoredEvent } from "../events/envelope";
import { defineJob, PermanentFailure, RetryLater, type JobContext } from "../jobs/define";
import { preparedFor } from "../db/prepared";
import { enqueue } from "../jobs/enqueue";
import { type Clock, systemClock } from "../lib/clock";
import { hmacSha256Hex, type SecretBox } from "../lib/crypto";
import { newId } from "../lib/ids";
import { assertPublicUrl, type Resolver } from "../lib/ssrf";
import { recordWebhookDelivery } from "../metrics/metrics";
import { webhookCacheOf, webhooksOf, type CachedWebhook } from "./webhooks.cache";

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const EXCERPT_BYTES = 1024;

/**
 * Retry schedule: the wait after failed attempt n is 1 min × 4^(n-1), capped at 6 h, ±10 %
 * jitter: 1 min, 4 min, 16 min, ~1 h, ~4.3 h, 6 h, 6 h, 6 h. Nine attempts span about 24 hours;
 * then the delivery is `failed`.
 */
export const MAX_DELIVERY_ATTEMPTS = 9;
export function retryDelayMs(failedAttempt: number, random = Math.random): number {
  const base = Math.min(6 * 3_600_000, 60_000 * 4 ** Math.max(0, failedAttempt - 1));
  return Math.round(base * (0.9 + random() * 0.2));
}
export const RETRY_SCHEDULE_TEXT =
  "Any 2xx answer acknowledges a delivery. Anything else — another status (redirects are not followed, so a 3xx " +
  "is a failure), no answer within 10 seconds, a connection error, or a URL that now resolves to a private address — " +
  "is retried with exponential backoff: after 1 min, 4 min, 16 min, about 1 h and 4.3 h, then every 6 h, each ±10 % " +
  "jitter: 9 attempts over about 24 hours, after which the delivery is `failed`. The first KiB of the last response " +
  "body is kept in `response_excerpt`. Deliveries may repeat: deduplicate on `DESK-Event-Id`.";

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
 * Inside each event's own transaction: one delivery row and one job per interested endpoint,
 * so a delivery exists exactly when its event does and survives any crash.
 */
export function registerWebhookFanOut(db: Db): () => void {
  const insert = db.$client.query<unknown, [string, string, string, string, string, string, string]>(
    `INSERT INTO webhook_deliveries (id, workspace_id, webhook_id, event_id, event_type, status, attempts, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
  );
  const cache = webhookCacheOf(db);
  return onEventInTransaction(db, (tx: Tx, event: StoredEvent) => {
    const endpoints = webhooksOf(db, cache, event.workspace_id);
    if (endpoints.length === 0) return;
    const now = systemClock.now().toISOString();
    for (const webhook of endpoints) {
      if (!wantsEvent(webhook, event)) continue;
      const deliveryId = newId();
      insert.run(deliveryId, event.workspace_id, webhook.id, event.id, event.type, now, now);
      enqueue(
        tx,
        deliverWebhookJob,
        { delivery_id: deliveryId },
        { workspaceId: event.workspace_id, maxAttempts: MAX_DELIVERY_ATTEMPTS },
      );
    }
  });
}

type DeliveryContext = {
  status: string;
  url: string;
  secret_sealed: string;
  event_id: string;
  seq: number;
  workspace_id: string;
  type: string;
  visibility: string;
  data: string;
  occurred_at: string;
};

export type DeliveryDeps = {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  config: Pick<Config, "allowedPrivateHosts">;
  resolver?: Resolver;
};

/** The envelope without topics, built from the stored JSON text of `data` (no re-serialising). */
const bodyOf = (r: DeliveryContext): string =>
  `{"id":${JSON.stringify(r.event_id)},"seq":${r.seq},"workspace_id":${JSON.stringify(r.workspace_id)},"type":${JSON.stringify(r.type)},` +
  `"visibility":${JSON.stringify(r.visibility)},"data":${r.data},"occurred_at":${JSON.stringify(r.occurred_at)}}`;

/** `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const signatureHeader = (secret: string, unixSeconds: number, body: string) =>
  `t=${unixSeconds},v1=${hmacSha256Hex(secret, `${unixSeconds}.${body}`)}`;

async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES));
  return new TextDecoder().decode(bytes).replace(/\uFFFD$/, "");
}

type Attempt = { ok: boolean; code: number | null; ms: number; excerpt: string | null; error: string | null };

async function post(deps: DeliveryDeps, ctx: DeliveryContext, signal: AbortSignal): Promise<Attempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // Checked again at connect time: DNS may have changed since the endpoint was created.
    await assertPublicUrl(ctx.url, deps.config.allowedPrivateHosts, deps.resolver);
    const body = bodyOf(ctx);
    const t = Math.floor(deps.clock.now().getTime() / 1000);
    const response = await fetch(ctx.url, {
      method: "POST",
      body,
      redirect: "manual",
      signal: AbortSignal.any([signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
      headers: {
        "content-type": "application/json",
        "user-agent": "Desk-Webhooks/1",
        "desk-signature": signatureHeader(deps.secrets.open(ctx.secret_sealed), t, body),
        "desk-event-id": ctx.event_id,
        "desk-event-type": ctx.type,
      },
    });
    const excerpt = await readExcerpt(response);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, code: response.status, ms: elapsed(), excerpt, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const message = timedOut
      ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
      : error instanceof Error
        ? error.message
        : String(error);
    return { ok: false, code: null, ms: elapsed(), excerpt: null, error: message.slice(0, 500) };
  }
}

/** Sends one delivery attempt; the job system provides durability, retries come from RetryLater. */
const deliveryStatements = preparedFor((sqlite) => ({
  load: sqlite.query<DeliveryContext, [string]>(
    `SELECT d.status, w.url, w.secret_sealed, e.id AS event_id, e.seq, e.workspace_id, e.type, e.visibility, e.data, e.occurred_at
     FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id WHERE d.id = ?`,
  ),
  record: sqlite.query<
    unknown,
    [string, number, number | null, number, string | null, string | null, string | null, string, string]
  >(
    `UPDATE webhook_deliveries SET status = ?, attempts = ?, response_code = ?, duration_ms = ?, response_excerpt = ?, last_error = ?,
     next_attempt_at = ?, updated_at = ? WHERE id = ?`,
  ),
}));

export const deliverWebhookJob = defineJob({
  name: "webhooks.deliver",
  schema: z.object({ delivery_id: z.string() }),
  concurrency: 32,
  retry: { maxAttempts: MAX_DELIVERY_ATTEMPTS },
  leaseMs: ATTEMPT_TIMEOUT_MS + 30_000,
  async handler({ delivery_id }, run: JobContext<DeliveryDeps>) {
    const { deps } = run;
    const { load, record } = deliveryStatements(deps.db);
    const ctx = load.get(delivery_id);
    // Gone (endpoint deleted, event pruned) or already settled: nothing to do, idempotently.
    if (ctx?.status !== "pending") return;
    const attempt = await post(deps, ctx, run.signal);
    const now = deps.clock.now();
    // Results of deliveries finishing together commit in one transaction (see batchedWrite).
    const write = (...args: Parameters<typeof record.run>) => batchedWrite(deps.db, () => record.run(...args));
    if (attempt.ok) {
      await write(
        "succeeded",
        run.attempt,
        attempt.code,
        attempt.ms,
        attempt.excerpt,
        null,
        null,
        now.toISOString(),
        delivery_id,
      );
      recordWebhookDelivery("succeeded");
      return;
    }
    if (run.attempt >= MAX_DELIVERY_ATTEMPTS) {
      await write(
        "failed",
        run.attempt,
        attempt.code,
        attempt.ms,
        attempt.excerpt,
        attempt.error,
        null,
        now.toISOString(),
        delivery_id,
      );
      recordWebhookDelivery("failed");
      throw new PermanentFailure(attempt.error ?? "delivery failed");
    }
    const delay = retryDelayMs(run.attempt);
    const next = new Date(now.getTime() + delay).toISOString();
    await write(
      "pending",
      run.attempt,
      attempt.code,
      attempt.ms,
      attempt.excerpt,
      attempt.error,
      next,
      now.toISOString(),
      delivery_id,
    );
    recordWebhookDelivery("retried");
    throw new RetryLater(delay, attempt.error ?? "delivery failed");
  },
});
