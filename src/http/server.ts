import type { Server } from "bun";
import type { Db } from "../db/database";
import { shareTurn, untilDurable } from "../db/tx";
import { isStorageFull, storageFull } from "../db/storage";
import type { Clock } from "../lib/clock";
import { safeEqual, type SecretBox } from "../lib/crypto";
import { DeskError, internalError, tooLarge, unauthorized } from "../lib/errors";
import { createIdempotency, idempotencyApplies, type IdempotencyCaller } from "./idempotency";
import { JSON_BODY_LIMIT } from "./parse";
import { requestMeta, setRequestMeta, UNMATCHED_ROUTE, type RateLimitState, type RequestMeta } from "./request-meta";
import { rateLimitHeaders } from "./rate-limit";
import { errorResponse } from "./respond";
import { docsHeaders, docsPage } from "./docs-page";
import { securityHeaders, servedOverHttps, WEB_APP_CSP, withHeaders } from "./security-headers";
import { createPageRouter, type Page } from "./pages";
import type { Readiness } from "./readiness";
import type { WebAssets } from "./web-assets";
import type { Logger } from "../lib/logger";

/** Uploads and raw mail may be larger than a JSON body; nothing may exceed this. */
export const MAX_BODY_BYTES = 40 * 1024 * 1024;
const LARGE_BODY_TYPES = ["multipart/form-data", "message/rfc822", "application/octet-stream"];

export type RequestObserver = (info: { method: string; route: string; status: number; ms: number }) => void;

export type HttpOptions = {
  /** Handles WebSocket upgrades (the realtime gateway); answers undefined when the path is not its own. */
  upgrade?: (
    request: Request,
    server: Server<unknown>,
  ) => Response | undefined | "upgraded" | Promise<Response | undefined | "upgraded">;
  webAssets?: WebAssets | null;
  observe?: RequestObserver;
  /** Answers GET /readyz (src/http/readiness.ts): 200 when ready, 503 with the failing checks. */
  readiness?: () => Promise<Readiness>;
  /** Renders GET /metrics (Prometheus text), served outside /v1. */
  metrics?: () => string | Promise<string>;
  /** Feature pages outside /v1 (`/help/…`, `/csat/…`, `/widget.js`), each with its own security headers. */
  pages?: readonly Page[];
};

/** The route label of the web app's files and client routes. */
const WEB_ROUTE = "(web)";

export type HttpHandler = (request: Request, server?: Server<unknown>) => Promise<Response>;

/** The application behind the HTTP layer (the Elysia app's `handle`): /v1, /healthz and unmatched paths. */
export type RequestHandler = (request: Request) => Promise<Response>;

/** What the HTTP layer itself needs; the composition root passes it. */
export type HttpDeps = {
  db: Db;
  secrets: SecretBox;
  clock: Clock;
  logger: Logger;
  /** The bearer token GET /metrics needs, if any. */
  metricsToken: string | null;
  /** Desk's public address (DESK_BASE_URL): HSTS is sent when it is https. */
  baseUrl: string;
  /** Who the caller is, for idempotency keys (null when the credential does not resolve). */
  callerScope: (request: Request) => Promise<IdempotencyCaller | null>;
};

/**
 * The outer layer in front of Elysia: request ids, client address, body limits, idempotency,
 * the docs page, the web app's files and access logs. Bun.serve and tests both call this.
 */
export function createHttpHandler(handle: RequestHandler, deps: HttpDeps, options: HttpOptions = {}): HttpHandler {
  const log = deps.logger.child({ subsystem: "http" });
  const https = servedOverHttps(deps.baseUrl);
  const layer: HttpLayer = {
    handle,
    deps,
    options,
    withIdempotency: createIdempotency(deps.db, deps.secrets, deps.callerScope, () => deps.clock.now()),
    log,
    pages: options.pages?.length ? createPageRouter(options.pages) : null,
    // The access log is debug-level: skip building its line when the level is above debug.
    debugEnabled: log.isLevelEnabled("debug"),
    webAppHeaders: securityHeaders(WEB_APP_CSP, https),
    docs: docsHeaders(https),
  };
  return (request, server) => serveRequest(layer, request, server);
}

/** One HTTP handler's settings, built once and shared by the functions answering each request. */
type HttpLayer = {
  handle: RequestHandler;
  deps: HttpDeps;
  options: HttpOptions;
  withIdempotency: ReturnType<typeof createIdempotency>;
  log: Logger;
  pages: ReturnType<typeof createPageRouter> | null;
  debugEnabled: boolean;
  webAppHeaders: ReturnType<typeof securityHeaders>;
  docs: ReturnType<typeof docsHeaders>;
};

async function serveRequest(layer: HttpLayer, request: Request, server?: Server<unknown>): Promise<Response> {
  const { deps, log } = layer;
  const started = performance.now();
  const requestId = request.headers.get("x-request-id")?.slice(0, 100) || crypto.randomUUID();
  let ip: string | null | undefined;
  const meta: RequestMeta = {
    requestId,
    startedAt: started,
    get ip() {
      if (ip === undefined) ip = server?.requestIP(request)?.address ?? null;
      return ip;
    },
  };
  setRequestMeta(request, meta);
  const path = pathOf(request.url);
  let response: Response;
  try {
    // A request line or Host that makes no URL (`CONNECT [::1]:443`, `Host: a^b`) reaches no route.
    if (path === null) throw unreadableRequest();
    response = await route(layer, request, path, server);
    // The answer may reflect changes of this turn (this request's or others'): send it once they are
    // committed. A read's own incidental writes (a key's last use) are hints that need not wait.
    if (response.status !== 101) {
      const durable = untilDurable(deps.db, request.method === "GET" || request.method === "HEAD");
      if (durable) await durable;
    }
  } catch (error) {
    if (error instanceof DeskError) response = errorResponse(error);
    else if (isStorageFull(error)) {
      // The turn's commit failed for lack of space: nothing of this request was stored.
      log.error({ err: error, req_id: requestId, path }, "storage full");
      response = errorResponse(storageFull());
    } else {
      log.error({ err: error, req_id: requestId, path }, "unhandled error");
      response = errorResponse(internalError());
    }
  }
  if (response.status === 101) return response;
  // A limit applied to this request: its budget as it stands now, after the handler's own hits.
  const limit = meta.rateLimit && !response.headers.has("ratelimit-limit") ? await meta.rateLimit() : null;
  return finish(layer, request, response, meta, path, limit);
}

/** Request id and rate-limit headers, the access log and the request metric. */
function finish(
  layer: HttpLayer,
  request: Request,
  response: Response,
  meta: RequestMeta,
  path: string | null,
  limit: RateLimitState | null,
) {
  const { log } = layer;
  const requestId = meta.requestId;
  response.headers.set("x-request-id", requestId);
  if (limit) for (const [name, value] of Object.entries(rateLimitHeaders(limit))) response.headers.set(name, value);
  const ms = performance.now() - meta.startedAt;
  if (response.status >= 500)
    log.error({ req_id: requestId, method: request.method, path, status: response.status, ms }, "request");
  else if (layer.debugEnabled)
    log.debug({ req_id: requestId, method: request.method, path, status: response.status, ms }, "request");
  // The path is the caller's free text: only a template that served it is a label, all else one label.
  layer.options.observe?.({
    method: request.method,
    route: meta.unmatched || meta.route === undefined ? UNMATCHED_ROUTE : meta.route,
    status: response.status,
    ms,
  });
  return response;
}

async function route(layer: HttpLayer, request: Request, path: string, server?: Server<unknown>): Promise<Response> {
  const { options } = layer;
  const reading = request.method === "GET" || request.method === "HEAD";
  if (
    reading &&
    options.upgrade &&
    server &&
    path.startsWith("/v1/") &&
    request.headers.get("upgrade")?.toLowerCase() === "websocket"
  ) {
    const upgraded = await options.upgrade(request, server);
    if (upgraded === "upgraded") return new Response(null, { status: 101 });
    if (upgraded) {
      // The gateway claims only its own exact paths, so the path is a fixed label here.
      requestMeta(request).route = path;
      return upgraded;
    }
  }
  // Liveness is answered here, without the API: a monitor polling an idle server never makes it
  // put its routes together (src/start.ts builds them on the first request that needs them).
  if (path === "/healthz" && reading) {
    requestMeta(request).route = path;
    return new Response('{"ok":true}', {
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    });
  }
  if (path.startsWith("/v1/") || path === "/v1" || path === "/healthz") return routeApi(layer, request, path);
  return routeOutsideApi(layer, request, path);
}

async function routeApi(layer: HttpLayer, request: Request, path: string): Promise<Response> {
  const method = request.method;
  shareTurn(layer.deps.db);
  // GET and HEAD bodies are never read (Elysia parses none), so only other methods are measured.
  if (method !== "GET" && method !== "HEAD") {
    const length = Number(request.headers.get("content-length") ?? 0);
    const type = request.headers.get("content-type") ?? "";
    const limit = LARGE_BODY_TYPES.some((t) => type.startsWith(t)) ? MAX_BODY_BYTES : JSON_BODY_LIMIT;
    if (length > limit)
      return errorResponse(tooLarge(`The request body is over ${Math.round(limit / 1024 / 1024)} MiB.`));
    if (!request.headers.has("content-length") && request.body) {
      // A body of undeclared length (chunked): read it under the same limit.
      const bytes = await readCapped(request.body, limit);
      if (!bytes) return errorResponse(tooLarge(`The request body is over ${Math.round(limit / 1024 / 1024)} MiB.`));
      const meta = requestMeta(request);
      request = new Request(request.url, { method, headers: request.headers, body: bytes });
      setRequestMeta(request, meta);
    }
  }
  if (idempotencyApplies(method, path)) return layer.withIdempotency(request, path, layer.handle);
  return layer.handle(request);
}

/** Readiness, metrics, the docs page, feature pages and the web app's files; anything else is the app's 404. */
async function routeOutsideApi(layer: HttpLayer, request: Request, path: string): Promise<Response> {
  const { options, pages } = layer;
  const reading = request.method === "GET" || request.method === "HEAD";
  if (path === "/readyz" && options.readiness && reading) {
    requestMeta(request).route = path;
    const readiness = await options.readiness();
    return new Response(JSON.stringify(readiness), {
      status: readiness.ok ? 200 : 503,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    });
  }
  if (path === "/metrics" && options.metrics && request.method === "GET") {
    requestMeta(request).route = path;
    const token = layer.deps.metricsToken;
    if (token && !safeEqual(request.headers.get("authorization") ?? "", `Bearer ${token}`))
      return errorResponse(
        unauthorized(
          "GET /metrics needs a bearer token: DESK_METRICS_TOKEN, or on a listener that is not loopback the one in <data dir>/metrics-token.key.",
        ),
      );
    return new Response(await options.metrics(), {
      headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" },
    });
  }
  if (path === "/docs" || path === "/docs/") {
    requestMeta(request).route = "/docs";
    return new Response(docsPage(), { headers: layer.docs });
  }
  const page = pages?.match(path);
  if (page) {
    requestMeta(request).route = page.path;
    // A page may read (a help center article) or write (a rating): its turn is shared like the API's,
    // and its answer waits for the commit like every other door's (serveRequest).
    shareTurn(layer.deps.db);
    return pages!.serve(page, request, path);
  }
  const asset = options.webAssets?.serve(path);
  if (asset) {
    requestMeta(request).route = WEB_ROUTE;
    return withHeaders(asset, layer.webAppHeaders);
  }
  return layer.handle(request);
}

/** Characters that never change under URL normalisation (no dots, escapes or backslashes). */
const PLAIN_PATH = /^\/[A-Za-z0-9/_-]*$/;
const PLAIN_HOST = /^[A-Za-z0-9.:[\]-]+$/;

/**
 * The pathname of an absolute request URL. Plain paths are cut from the string (most requests);
 * anything that URL parsing could normalise goes through `new URL`, so both answer the same.
 */
export function pathOf(url: string): string | null {
  const scheme = url.indexOf("://");
  if (scheme > 0) {
    const start = url.indexOf("/", scheme + 3);
    if (start > 0) {
      let end = url.length;
      for (let i = start; i < url.length; i++) {
        const c = url.charCodeAt(i);
        if (c === 63 /* ? */ || c === 35 /* # */) {
          end = i;
          break;
        }
      }
      const path = url.slice(start, end);
      const host = url.slice(scheme + 3, start);
      if (PLAIN_PATH.test(path) && PLAIN_HOST.test(host)) return path;
    }
  }
  return URL.canParse(url) ? new URL(url).pathname : null;
}

const unreadableRequest = () =>
  new DeskError(400, "malformed_request", "The request line or Host header could not be read.");

/**
 * Bun.serve's last resort for anything thrown outside the handler's own catch. It must never show
 * Bun's development page (source lines and absolute paths), so it answers SPEC.md's bare 500.
 */
export function edgeErrorHandler(log: Pick<Logger, "error">) {
  return (error: Error): Response => {
    log.error({ err: error }, "unhandled error at the HTTP edge");
    return errorResponse(internalError());
  };
}

async function readCapped(stream: ReadableStream<Uint8Array>, limit: number): Promise<Blob | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return new Blob(chunks as BlobPart[]);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
}
