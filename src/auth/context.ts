export const ROLES = ["viewer", "agent", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

export const SCOPES = [
  "tickets:read",
  "tickets:write",
  "contacts:read",
  "contacts:write",
  "kb:read",
  "kb:write",
  "settings:read",
  "settings:write",
  "realtime",
] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope allows, as the API document and the key settings say it. */
export const SCOPE_TEXT: Record<Scope, string> = {
  "tickets:read": "read tickets, messages, attachments, reports and search",
  "tickets:write": "create and change tickets and messages",
  "contacts:read": "read contacts and companies",
  "contacts:write": "create, change and delete contacts and companies",
  "kb:read": "read knowledge base collections and articles",
  "kb:write": "create, change and delete knowledge base collections and articles",
  "settings:read": "read workspace settings, members, teams, keys, webhooks, mailboxes and the audit log",
  "settings:write": "change workspace settings",
  realtime: "open the realtime gateway and replay events",
};

export const roleAtLeast = (role: Role, minimum: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(minimum);

export type Actor =
  | { type: "user"; userId: string; sessionId: string | null }
  | { type: "api_key"; apiKeyId: string; createdBy: string | null };

/**
 * Who is asking, in which workspace. Services receive it explicitly; the workspace always comes
 * from the credential, never from a body.
 */
export type RequestContext = {
  workspaceId: string;
  actor: Actor;
  /** The member's role; an API key acts as an admin bounded by its scopes. */
  role: Role;
  /** null for people (their role limits them); the key's scopes for API keys. */
  scopes: Scope[] | null;
  /** Private teams whose tickets this caller sees; "all" for admins, owners and keys. */
  visibleTeams: "all" | string[];
  requestId: string;
  ip: string | null;
  /** Set when an automation acts (on a system context): activities name it as their actor. */
  automation?: { id: string; name: string };
};

/** A signed-in person, without a workspace (for /v1/me, /v1/workspaces, MFA enrolment). */
export type UserContext = {
  userId: string;
  sessionId: string | null;
  authenticatedAt: string | null;
  mfaVerified: boolean;
  requestId: string;
  ip: string | null;
};

export const actorUserId = (ctx: RequestContext): string | null =>
  ctx.actor.type === "user" ? ctx.actor.userId : ctx.actor.createdBy;

export const hasScope = (ctx: RequestContext, scope: Scope): boolean =>
  ctx.scopes === null || ctx.scopes.includes(scope);

/** A context for work the system does on its own (jobs, inbound mail). */
export function systemContext(workspaceId: string, requestId = "system"): RequestContext {
  return {
    workspaceId,
    actor: { type: "api_key", apiKeyId: "system", createdBy: null },
    role: "owner",
    scopes: null,
    visibleTeams: "all",
    requestId,
    ip: null,
  };
}

/** A chat widget visitor (`Authorization: Visitor <token>`): the workspace is their session's. */
export type VisitorContext = {
  workspaceId: string;
  contactId: string;
  visitorSessionId: string;
  requestId: string;
  ip: string | null;
};

/** A caller of a public route (no credential): only what the HTTP layer knows of the request. */
export type PublicContext = { requestId: string; ip: string | null };
