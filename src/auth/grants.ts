import { roleAtLeast, type RequestContext, type Role, type Scope } from "./context";

/**
 * The one rule for everything that creates or widens a privilege (API keys, invitations, role
 * changes, private-team membership, webhooks with private-team grants): a credential never grants
 * more than it holds.
 *
 * - A person may grant roles up to their own (only an owner makes owners; routes already need admin).
 * - An API key's reach is its scopes. A role's reach, as scopes, is what its holder can read and
 *   write; a key may grant a role only when its scopes cover that reach. Admin and owner reach
 *   beyond any key (they manage members, keys and every private team, and their access outlives any
 *   key's revocation), so a key never makes, unmakes or removes an admin or owner.
 */
// kb:read and kb:write join these reaches when the knowledge base's routes are served: until then a
// role reaches nothing through them, and the API reference does not list them.
const READ_REACH: Scope[] = ["tickets:read", "contacts:read", "settings:read", "realtime"];
const ROLE_REACH: Record<Role, Scope[] | null> = {
  viewer: READ_REACH,
  agent: [...READ_REACH, "tickets:write", "contacts:write"],
  admin: null,
  owner: null,
};

/** Scopes of `wanted` the caller does not hold (none for people, whose role already passed the route's guard). */
export function scopesBeyond<S extends string>(ctx: RequestContext, wanted: readonly S[]): S[] {
  const held: readonly string[] | null = ctx.scopes;
  return held === null ? [] : wanted.filter((s) => !held.includes(s));
}

/** Whether the caller may give someone `role` (an invitation, a role change, a new member). */
export function mayGrantRole(ctx: RequestContext, role: Role): boolean {
  if (ctx.scopes === null) return roleAtLeast(ctx.role, role);
  const reach = ROLE_REACH[role];
  return reach !== null && scopesBeyond(ctx, reach).length === 0;
}

/** Whether the caller may change or remove the membership of someone holding `role`. */
export function mayAlterRole(ctx: RequestContext, role: Role): boolean {
  return ctx.scopes === null ? roleAtLeast(ctx.role, role) : ROLE_REACH[role] !== null;
}

export function grantDeniedDetail(ctx: RequestContext, role: Role): string {
  if (ctx.scopes === null) return `Your role cannot grant or change the ${role} role.`;
  const reach = ROLE_REACH[role];
  return reach === null
    ? `An API key cannot grant, change or remove the ${role} role; a signed-in ${role === "owner" ? "owner" : "admin"} must.`
    : `An API key can grant the ${role} role only when it holds every scope that role reaches; it lacks ${scopesBeyond(ctx, reach).join(", ")}.`;
}
