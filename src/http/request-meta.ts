/**
 * Facts the outer HTTP layer learns about a request (id, client address) for handlers to read.
 * `ip` may be a getter: asking the socket for its peer is a system call most requests never need.
 */
export type RequestMeta = {
  requestId: string;
  readonly ip: string | null;
  startedAt: number;
  /** Set when no route matched the path: metrics then count it under one label, not the path. */
  unmatched?: boolean;
  /**
   * The template of what served the request (`/v1/tickets/:id`, a page's path, `/healthz`): the only
   * route label metrics take, since a path carries whatever the caller typed.
   */
  route?: string;
  /** The budget a rate limit applied to this request; read when the answer is sent (RateLimit-* headers). */
  rateLimit?: () => Promise<RateLimitState>;
};

/**
 * What the standard `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers say
 * (IETF draft-ietf-httpapi-ratelimit-headers): the budget, what is left of it, and the seconds
 * until the next slot frees (the oldest counted hit leaves the window; 0 when none is counted).
 */
export type RateLimitState = { limit: number; remaining: number; reset: number };

/** The route the access observer (metrics) is given for a request no route matched. */
export const UNMATCHED_ROUTE = "(unmatched)";

const metas = new WeakMap<Request, RequestMeta>();

export function setRequestMeta(request: Request, meta: RequestMeta): void {
  metas.set(request, meta);
}

export function requestMeta(request: Request): RequestMeta {
  let meta = metas.get(request);
  if (!meta) {
    meta = { requestId: crypto.randomUUID(), ip: null, startedAt: performance.now() };
    metas.set(request, meta);
  }
  return meta;
}
