import { Elysia } from "elysia";
import type { AccessRule, Credential, CredentialResolver } from "../auth/credentials";
import type { RequestContext, UserContext } from "../auth/context";

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
      async transform({ request }) {
        resolved.set(request, await resolver.workspaceContext(request, rule));
      },
      resolve({ request }) {
        return { ctx: take<RequestContext>(request) };
      },
    }),
    signedIn: (_enabled: true) => ({
      async transform({ request }) {
        resolved.set(request, await resolver.userContext(request));
      },
      resolve({ request }) {
        return { user: take<UserContext>(request) };
      },
    }),
    identified: (_enabled: true) => ({
      async transform({ request }) {
        resolved.set(request, await resolver.credential(request));
      },
      resolve({ request }) {
        return { credential: take<Credential>(request) };
      },
    }),
  });
}

export type GuardPlugin = ReturnType<typeof guardPlugin>;
