/**
 * What a route's guard demands, read back by the OpenAPI document (its security, header and error
 * answers). The guards themselves are auth's (src/auth/guard.ts); this file only carries their rule
 * from the route to the document, so the HTTP layer never imports auth.
 *   access: a person in a workspace or an API key (`scopes` it needs);
 *   signedIn / identified: a person, or a person or key, without a workspace;
 *   public: no credential, rate-limited per client address;
 *   visitor: `Authorization: Visitor <token>`, the workspace from the visitor session.
 */
export type GuardRule =
  | { kind: "access"; rule: { scopes?: readonly string[] } }
  | { kind: "signedIn" }
  | { kind: "identified" }
  | { kind: "public" }
  | { kind: "visitor" };

// Elysia expands macros into plain hooks and keeps no trace of the option, so each guard's hook
// carries its rule here; the document reads it back instead of every route restating it.
const guardRules = new WeakMap<object, GuardRule>();

/** Tags a guard's hook with the rule it enforces. */
export function markGuard<F extends object>(rule: GuardRule, hook: F): F {
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
