import { Elysia } from "elysia";
import type { AccessRule, Credential, CredentialResolver } from "./credentials";
import type { RequestContext, UserContext } from "./context";

/**
 * The authorization layer. A route states its rule in its options and never checks by hand:
 *   `{ access: { role: "agent", scopes: ["tickets:write"] } }` → `ctx: RequestContext`
 *   `{ signedIn: true }` → `user: UserContext` (people only, no workspace)
 *   `{ identified: true }` → `credential` (a person or an API key, no workspace needed)
 * Credentials are checked in `transform`, before body validation, so a caller without a valid
 * credential learns nothing about the route's input rules: 401/403 come before 422.
 */
export function guardPlugin(resolver: CredentialResolver) {
  const resolved = new WeakMap<Request, RequestContext | UserContext | Credential>();
  const take = <T>(request: Request) => resolved.get(request) as T;
  return new Elysia({ name: "desk-guard", seed: resolver }).macro({
    access: (rule: AccessRule) => ({
      transform: marked({ kind: "access", rule }, async ({ request }: { request: Request }) => {
        resolved.set(request, await resolver.workspaceContext(request, rule));
      }),
      resolve({ request }) {
        return { ctx: take<RequestContext>(request) };
      },
    }),
    signedIn: (_enabled: true) => ({
      transform: marked({ kind: "signedIn" }, async ({ request }: { request: Request }) => {
        resolved.set(request, await resolver.userContext(request));
      }),
      resolve({ request }) {
        return { user: take<UserContext>(request) };
      },
    }),
    identified: (_enabled: true) => ({
      transform: marked({ kind: "identified" }, async ({ request }: { request: Request }) => {
        resolved.set(request, await resolver.credential(request));
      }),
      resolve({ request }) {
        return { credential: take<Credential>(request) };
      },
    }),
  });
}

/** What a route's guard demands, read back by the OpenAPI document (its security, header and error answers). */
export type GuardRule = { kind: "access"; rule: AccessRule } | { kind: "signedIn" } | { kind: "identified" };

// Elysia expands macros into plain hooks and keeps no trace of the option, so each guard's hook
// carries its rule here; the document reads it back instead of every route restating it.
const guardRules = new WeakMap<object, GuardRule>();

function marked<F extends object>(rule: GuardRule, hook: F): F {
  guardRules.set(hook, rule);
  return hook;
}

/** The guard rule of a route, from its stored transform hooks (functions or `{ fn }` entries). */
export function guardRuleOf(transform: unknown): GuardRule | null {
  const hooks = Array.isArray(transform) ? transform : transform ? [transform] : [];
  for (const hook of hooks) {
    const fn: unknown = typeof hook === "function" ? hook : (hook as { fn?: unknown } | null)?.fn;
    const rule = typeof fn === "function" ? guardRules.get(fn) : undefined;
    if (rule) return rule;
  }
  return null;
}

export type GuardPlugin = ReturnType<typeof guardPlugin>;
