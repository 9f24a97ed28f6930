import type { Config } from "../config/config";
import type { Db } from "../db/database";
import type { Clock } from "../lib/clock";
import { hmacSha256Hex, type SecretBox } from "../lib/crypto";
import { assertPublicUrl, type Resolver } from "../lib/ssrf";

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
  "body is kept in `response_excerpt`. Deliveries may repeat: deduplicate on `DESK-Event-Id`; they are not ordered " +
  "(order by `seq`). An endpoint has at most 2 deliveries in flight and a workspace at most 8, so a slow endpoint " +
  "delays only itself. After 5 failed attempts in a row the endpoint is paused (its Webhook shows `paused_until` and " +
  "`consecutive_failures`): its deliveries wait without spending attempts, 1 minute at first, doubling with each " +
  "further failure up to 1 hour; one success, or a new `url`, ends the pause.";

/** What one attempt needs: the endpoint, its sealed secret and the stored event. */
export type DeliveryContext = {
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
    void reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES));
  return new TextDecoder().decode(bytes).replace(/\uFFFD$/, "");
}

export type Attempt = { ok: boolean; code: number | null; ms: number; excerpt: string | null; error: string | null };

/** One signed POST of a delivery, never throwing: the outcome, timings and the first KiB of the answer. */
export async function post(deps: DeliveryDeps, ctx: DeliveryContext, signal: AbortSignal): Promise<Attempt> {
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
