import type { Db } from "../db/database";
import { sha256Hex, type SecretBox } from "../lib/crypto";
import { DeskError } from "../lib/errors";
import { idempotencyStatements } from "./idempotency.statements";
import { errorResponse } from "./respond";
import { requestMeta, setRequestMeta } from "./request-meta";

const KEY_RE = /^[\x20-\x7e]{1,255}$/;
/** How SecretBox output starts: what a sealed stored answer looks like. */
const SEALED_PREFIX = "v1.";
const STORED_LIMIT = 1024 * 1024;
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/**
 * Who calls, as idempotency sees it: the scope keys are kept under, or that and headers every answer
 * of this layer must carry for the caller (a widget visitor's CORS, which the route would have set).
 */
export type IdempotencyCaller = string | { scope: string; headers: Record<string, string> };

/** Sign-in and token routes are not covered (SPEC.md), nor anything outside the API. */
export const idempotencyApplies = (method: string, path: string): boolean =>
  method === "POST" && path.startsWith("/v1/") && !path.startsWith("/v1/auth/") && path !== "/v1/realtime/token";

/**
 * Run once at start, before serving. A key still `running` belongs to a request of an earlier
 * process (it crashed or was killed mid-request): no answer will ever be stored for it, and left
 * alone it would answer 409 to every retry for 24 hours. Dropping it lets the retry run again.
 * Returns how many were dropped.
 */
export async function recoverIdempotencyKeys(db: Db): Promise<number> {
  // Answers stored in plain text by earlier versions may hold one-time secrets: dropped too.
  return idempotencyStatements(db).recoverAtStart(SEALED_PREFIX);
}

/**
 * SPEC.md's idempotency rules as one wrapper around every POST: the first response for a
 * (caller, key) is stored and replayed for 24 hours; a different body or route with the same key
 * is refused; a retry while the first runs answers 409. 5xx, 429, streams and bodies over 1 MiB
 * are not kept, so a retry runs again.
 *
 * Stored answers are sealed with the secret box: a create's answer may carry a secret shown only
 * once (an API key's secret, a webhook's signing secret, an invitation link), and the replay must
 * return it while desk.db and its WAL must not hold it readable.
 */
export function createIdempotency(
  db: Db,
  secrets: SecretBox,
  callerScope: (request: Request) => Promise<IdempotencyCaller | null>,
  now: () => Date,
) {
  const statements = idempotencyStatements(db);

  return async function withIdempotency(
    request: Request,
    _path: string,
    inner: (request: Request) => Promise<Response>,
  ): Promise<Response> {
    const key = request.headers.get("idempotency-key");
    if (key === null) return inner(request);
    if (!KEY_RE.test(key)) {
      return errorResponse(
        new DeskError(422, "validation_failed", "Idempotency-Key must be 1 to 255 printable ASCII characters.", [
          { location: "header.idempotency-key", message: "must be 1 to 255 printable ASCII characters" },
        ]),
      );
    }
    const caller = await callerScope(request);
    if (!caller) return inner(request);
    const scope = typeof caller === "string" ? caller : caller.scope;
    const callerHeaders = typeof caller === "string" ? null : caller.headers;
    const refuse = (error: DeskError) => {
      const response = errorResponse(error);
      if (callerHeaders) for (const [name, value] of Object.entries(callerHeaders)) response.headers.set(name, value);
      return response;
    };
    const body = await request.arrayBuffer();
    const url = new URL(request.url);
    const fingerprint = sha256Hex(`${request.method} ${url.pathname}${url.search}\n${sha256Hex(new Uint8Array(body))}`);
    const existing = await statements.claimOrFind(scope, key, fingerprint, now(), IDEMPOTENCY_TTL_MS);
    if (existing) {
      if (existing.fingerprint !== fingerprint) {
        return refuse(
          new DeskError(422, "idempotency_key_reused", "This Idempotency-Key was used with a different request."),
        );
      }
      if (existing.state === "running") {
        return refuse(
          new DeskError(409, "idempotency_in_progress", "A request with this Idempotency-Key is still running."),
        );
      }
      const headers: Record<string, string> = { ...callerHeaders, "idempotent-replayed": "true" };
      if (existing.content_type) headers["content-type"] = existing.content_type;
      if (existing.location) headers.location = existing.location;
      return new Response(existing.body === null ? null : secrets.open(existing.body), {
        status: existing.status ?? 200,
        headers,
      });
    }
    const replay = new Request(request.url, { method: request.method, headers: request.headers, body });
    setRequestMeta(replay, requestMeta(request));
    let response: Response;
    try {
      response = await inner(replay);
    } catch (error) {
      await statements.release(scope, key);
      throw error;
    }
    const contentType = response.headers.get("content-type");
    if (response.status >= 500 || response.status === 429 || contentType?.startsWith("text/event-stream")) {
      await statements.release(scope, key);
      return response;
    }
    const text = await response.text();
    if (text.length > STORED_LIMIT) await statements.release(scope, key);
    else
      await statements.store(scope, key, {
        status: response.status,
        contentType,
        location: response.headers.get("location"),
        body: secrets.seal(text),
      });
    return new Response(text, { status: response.status, headers: response.headers });
  };
}
