import { Elysia } from "elysia";
import { markGuard } from "../http/guard-rules";
import { memoryRateLimitStore, type RateLimiter, type RateLimitStore, takeRateLimit } from "../http/rate-limit";
import { requestMeta } from "../http/request-meta";
import type { Clock } from "../lib/clock";
import type { AccessRule, Credential, CredentialResolver } from "./credentials";
import type { PublicContext, RequestContext, UserContext, VisitorContext } from "./context";
import { noVisitors, resolveVisitor, type VisitorResolver } from "./visitors";

/** A public route's budget per client address; `true` takes the default. */
export type PublicRule = true | { limit: number; windowMs: number };
/** Requests per client address and minute on a public route unless it states its own budget. */
export const PUBLIC_RATE_LIMIT = { limit: 120, windowMs: 60_000 } as const;

export type GuardOptions = {
  /** Visitor sessions (the widget feature); without one every visitor credential answers 401. */
  visitors?: VisitorResolver;
  /** Time for the public routes' rate limits. */
  clock: Clock;
  /** Where the public routes' budgets are counted; in this process's memory unless given. */
  rateLimits?: RateLimitStore;
};

/**
 * The authorization layer. A route states its rule in its options and never checks by hand:
 *   `{ access: { role: "agent", scopes: ["tickets:write"] } }` → `ctx: RequestContext`
 *   `{ signedIn: true }` → `user: UserContext` (people only, no workspace)
 *   `{ identified: true }` → `credential` (a person or an API key, no workspace needed)
 *   `{ visitor: true }` → `visitor: VisitorContext` (`Authorization: Visitor <token>`; the workspace
 *     is the visitor session's)
 *   `{ public: true }` or `{ public: { limit, windowMs } }` → `visit: PublicContext` (no credential;
 *     RateLimit-* headers on every answer, 429 with Retry-After past the budget per client address)
 * Credentials are checked in `transform`, before body validation, so a caller without a valid
 * credential learns nothing about the route's input rules: 401/403 come before 422.
 */
export function guardPlugin(resolver: CredentialResolver, options: GuardOptions) {
  const resolved = new WeakMap<Request, RequestContext | UserContext | Credential | VisitorContext | PublicContext>();
  const visitors = options.visitors ?? noVisitors;
  const store = options.rateLimits ?? memoryRateLimitStore(() => options.clock.now().getTime());
  // One limiter per budget: public routes with the same budget share it per client address.
  const limiters = new Map<string, RateLimiter>();
  const limiterFor = (rule: PublicRule): RateLimiter => {
    const { limit, windowMs } = rule === true ? PUBLIC_RATE_LIMIT : rule;
    const key = `${limit}/${windowMs}`;
    let limiter = limiters.get(key);
    if (!limiter) {
      limiter = store.limiter({ name: `public.${key}`, limit, windowMs });
      limiters.set(key, limiter);
    }
    return limiter;
  };
  const take = <T>(request: Request) => resolved.get(request) as T;
  return new Elysia({ name: "desk-guard", seed: resolver }).macro({
    access: (rule: AccessRule) => ({
      transform: markGuard({ kind: "access", rule }, async ({ request }: { request: Request }) => {
        resolved.set(request, await resolver.workspaceContext(request, rule));
      }),
      resolve({ request }) {
        return { ctx: take<RequestContext>(request) };
      },
    }),
    signedIn: (_enabled: true) => ({
      transform: markGuard({ kind: "signedIn" }, async ({ request }: { request: Request }) => {
        resolved.set(request, await resolver.userContext(request));
      }),
      resolve({ request }) {
        return { user: take<UserContext>(request) };
      },
    }),
    identified: (_enabled: true) => ({
      transform: markGuard({ kind: "identified" }, async ({ request }: { request: Request }) => {
        resolved.set(request, await resolver.credential(request));
      }),
      resolve({ request }) {
        return { credential: take<Credential>(request) };
      },
    }),
    visitor: (_enabled: true) => ({
      transform: markGuard({ kind: "visitor" }, async ({ request }: { request: Request }) => {
        const session = await resolveVisitor(visitors, request);
        const meta = requestMeta(request);
        const visitor: VisitorContext = {
          workspaceId: session.workspaceId,
          contactId: session.contactId,
          visitorSessionId: session.sessionId,
          requestId: meta.requestId,
          get ip() {
            return meta.ip;
          },
        };
        resolved.set(request, visitor);
      }),
      resolve({ request }) {
        return { visitor: take<VisitorContext>(request) };
      },
    }),
    public: (rule: PublicRule) => {
      const limiter = limiterFor(rule);
      return {
        transform: markGuard({ kind: "public" }, async ({ request }: { request: Request }) => {
          const meta = requestMeta(request);
          // A request with no known address (in-process calls) has no budget to spend.
          const ip = meta.ip;
          await takeRateLimit(limiter, ip, meta);
          const visit: PublicContext = { requestId: meta.requestId, ip };
          resolved.set(request, visit);
        }),
        resolve({ request }) {
          return { visit: take<PublicContext>(request) };
        },
      };
    },
  });
}

export type GuardPlugin = ReturnType<typeof guardPlugin>;
