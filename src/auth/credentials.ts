import type { Db, Tx } from "../db/database";
import { afterCommit } from "../db/tx";
import { forbidden, notFound, unauthorized, validationFailed } from "../lib/errors";
import { requestMeta } from "../http/request-meta";
import type { Clock } from "../lib/clock";
import { sha256Hex } from "../lib/crypto";
import { roleAtLeast, SCOPES, type Role, type RequestContext, type Scope, type UserContext } from "./context";
import { onAccessEnded } from "./session-signals";
import type { TokenService } from "./tokens";

export const API_KEY_PREFIX = "desk_live_";
const KEY_CACHE_TTL_MS = 30_000;
const KEY_CACHE_MAX = 10_000;
const MEMBER_CACHE_MAX = 10_000;

export type AccessRule = {
  /** Minimum member role; default viewer. */
  role?: Role;
  /** Scopes an API key needs (all of them); people are limited by role instead. */
  scopes?: readonly Scope[];
  /** false: people only, an API key answers 403. */
  keys?: boolean;
};

export type Credential =
  | { kind: "api_key"; apiKeyId: string; workspaceId: string; scopes: Scope[]; createdBy: string | null }
  | { kind: "user"; userId: string; sessionId: string | null; authenticatedAt: string | null; mfaVerified: boolean };

type KeyRow = {
  id: string;
  workspace_id: string;
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  created_by: string | null;
};

/**
 * What the resolver asks the features that own API keys, members and teams (machinery reads no
 * feature table): the composition root passes their public lookups in. Each runs a statement
 * prepared once; they are on the path of every request.
 */
export type CredentialLookups = {
  /** The key whose secret hashes to `hash` in a workspace not deleted (revoked or expired ones too), or null. */
  keyByHash(hash: string): (KeyRow | null) | Promise<KeyRow | null>;
  /** Records a key's last use (a hint). */
  touchKey(id: string, at: string): void | Promise<void>;
  /** A person's role in a workspace not deleted, or null. */
  memberRole(workspaceId: string, userId: string): (Role | null) | Promise<Role | null>;
  /** The private teams of the workspace the person is in. */
  privateTeams(workspaceId: string, userId: string): string[] | Promise<string[]>;
  /** The workspaces a person belongs to, oldest membership first (the session answer lists them). */
  workspacesOf(userId: string): WorkspaceMembership[] | Promise<WorkspaceMembership[]>;
  /** Names of the workspaces that require this person to sign in with single sign-on (`sso_only`, not their owner). */
  ssoOnlyWorkspaces(userId: string): string[] | Promise<string[]>;
  /** The session an access token names (identity owns sessions), or null. */
  sessionById(sessionId: string): (SessionRow | null) | Promise<SessionRow | null>;
};

export type WorkspaceMembership = { id: string; name: string; slug: string; role: Role };
type SessionRow = {
  user_id: string;
  revoked_at: string | null;
  expires_at: string;
  authenticated_at: string;
  mfa_verified: number;
};

export type CredentialResolver = ReturnType<typeof createCredentialResolver>;

type ResolverDeps = {
  db: Db;
  tokens: TokenService;
  clock: Clock;
  lookups: CredentialLookups;
};

type KeyEntry = { key: KeyRow; scopes: Scope[]; expiresAt: number; cachedAt: number };
type MemberEntry = { role: Role; visibleTeams: "all" | string[]; cachedAt: number };

/** What one resolver keeps between requests: its session read and its caches. */
type ResolverState = {
  sessionById: CredentialLookups["sessionById"];
  lastTouched: Map<string, number>;
  keyCache: Map<string, KeyEntry>;
  memberCache: Map<string, MemberEntry>;
};

/**
 * Turns the Authorization header into a credential and, for workspace routes, a RequestContext.
 * The one place that reads credential and membership tables for every request; statements are
 * prepared once.
 */
export function createCredentialResolver(deps: ResolverDeps) {
  const state: ResolverState = {
    sessionById: deps.lookups.sessionById,
    lastTouched: new Map(),
    // API keys are looked up on every request; their rows change only through the api-keys service,
    // which signals every revocation or scope change, as do member and workspace removal. Any signal
    // empties the cache; the TTL is a safety net. Expiry is still checked on every use.
    // Keyed by the presented secret itself, so a cached key costs no hashing (the process holds each
    // request's secret anyway); a miss hashes it and looks the key up by hash.
    keyCache: new Map(),
    // A person's role and private teams in a workspace, read on every request they make. Every write
    // that changes them (members, invitations, teams, workspace transfer) appends a member.*, team.* or
    // workspace.* event in its transaction, and removals also signal: either empties the cache, at
    // once (inside the transaction: later reads of this turn share it) and again after the commit.
    memberCache: new Map(),
  };
  onAccessEnded(deps.db, () => {
    state.keyCache.clear();
    state.memberCache.clear();
  });
  const credential = (request: Request) => credentialOf(deps, state, request);
  return {
    credential,
    workspaceContext: (request: Request, rule: AccessRule) => workspaceContextOf(deps, state, request, rule),
    userContext: (request: Request) => userContextOf(credential, request),
    callerScope: (request: Request) => callerScopeOf(credential, request),
    /**
     * Called (by the members, teams and workspaces modules' hooks on their events) in the
     * transaction of every event that may change a role or private teams: empties the membership
     * cache now, for later reads of this turn, and again after the commit.
     */
    membershipsChanged(tx: Tx): void {
      state.memberCache.clear();
      afterCommit(tx, () => state.memberCache.clear());
    },
    workspacesOf: deps.lookups.workspacesOf,
  };
}

/** A cache hit answers at once, without an async frame: every signed-in request asks this. */
function membership(
  deps: ResolverDeps,
  state: ResolverState,
  workspaceId: string,
  userId: string,
  nowMs: number,
): MemberEntry | null | Promise<MemberEntry | null> {
  const cacheKey = `${workspaceId}\n${userId}`;
  const cached = state.memberCache.get(cacheKey);
  if (cached && nowMs - cached.cachedAt <= KEY_CACHE_TTL_MS) return cached;
  return loadMembership(deps, state, cacheKey, workspaceId, userId, nowMs);
}

async function loadMembership(
  deps: ResolverDeps,
  state: ResolverState,
  cacheKey: string,
  workspaceId: string,
  userId: string,
  nowMs: number,
): Promise<MemberEntry | null> {
  const { memberCache } = state;
  const role = await deps.lookups.memberRole(workspaceId, userId);
  if (!role) return null;
  const entry: MemberEntry = {
    role,
    visibleTeams: roleAtLeast(role, "admin") ? "all" : await deps.lookups.privateTeams(workspaceId, userId),
    cachedAt: nowMs,
  };
  if (memberCache.size >= MEMBER_CACHE_MAX) memberCache.clear();
  memberCache.set(cacheKey, entry);
  return entry;
}

async function credentialOf(deps: ResolverDeps, state: ResolverState, request: Request): Promise<Credential> {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) throw unauthorized();
  const bearer = match[1]!;
  const now = deps.clock.now();
  if (bearer.startsWith(API_KEY_PREFIX)) return apiKeyCredential(deps, state, bearer, now);
  const claims = await deps.tokens.verify<{ sub: string; sid: string }>(bearer, "access");
  if (!claims?.sub || !claims.sid) throw unauthorized();
  // Answered at once on SQLite (every signed-in request asks); another engine's Promise is awaited.
  const found = state.sessionById(claims.sid);
  const session = found instanceof Promise ? await found : found;
  if (!session || session.user_id !== claims.sub || session.revoked_at || session.expires_at <= now.toISOString()) {
    throw unauthorized("The session has ended; sign in again.");
  }
  return {
    kind: "user",
    userId: claims.sub,
    sessionId: claims.sid,
    authenticatedAt: session.authenticated_at,
    mfaVerified: session.mfa_verified === 1,
  };
}

/** A cached key answers without an async frame (every request with an API key asks this); a miss reads it. */
function apiKeyCredential(
  deps: ResolverDeps,
  state: ResolverState,
  bearer: string,
  now: Date,
): Credential | Promise<Credential> {
  const nowMs = now.getTime();
  const entry = state.keyCache.get(bearer);
  if (!entry || nowMs - entry.cachedAt > KEY_CACHE_TTL_MS)
    return loadKeyEntry(deps, state, bearer, nowMs).then((loaded) => keyCredential(deps, state, loaded, now));
  return keyCredential(deps, state, entry, now);
}

async function loadKeyEntry(
  deps: ResolverDeps,
  state: ResolverState,
  bearer: string,
  nowMs: number,
): Promise<KeyEntry> {
  const { keyCache } = state;
  const row = await deps.lookups.keyByHash(sha256Hex(bearer));
  if (!row) throw unauthorized();
  const scopes = (JSON.parse(row.scopes) as string[]).filter((s): s is Scope =>
    (SCOPES as readonly string[]).includes(s),
  );
  const entry = {
    key: row,
    scopes,
    expiresAt: row.expires_at ? Date.parse(row.expires_at) : Infinity,
    cachedAt: nowMs,
  };
  if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
  keyCache.set(bearer, entry);
  return entry;
}

function keyCredential(
  deps: ResolverDeps,
  state: ResolverState,
  entry: KeyEntry,
  now: Date,
): Credential | Promise<Credential> {
  const nowMs = now.getTime();
  const key = entry.key;
  if (key.revoked_at || entry.expiresAt <= nowMs) throw unauthorized();
  const credential: Credential = {
    kind: "api_key",
    apiKeyId: key.id,
    workspaceId: key.workspace_id,
    scopes: entry.scopes,
    createdBy: key.created_by,
  };
  // last_used_at is a hint, not an audit trail: write it at most once a minute per key.
  const previous = state.lastTouched.get(key.id) ?? 0;
  if (nowMs - previous <= 60_000) return credential;
  state.lastTouched.set(key.id, nowMs);
  return Promise.resolve(deps.lookups.touchKey(key.id, now.toISOString())).then(() => credential);
}

async function workspaceContextOf(
  deps: ResolverDeps,
  state: ResolverState,
  request: Request,
  rule: AccessRule,
): Promise<RequestContext> {
  const cred = await credentialOf(deps, state, request);
  const meta = requestMeta(request);
  if (cred.kind === "api_key") {
    if (rule.keys === false || rule.role === "owner")
      throw forbidden("This route is for signed-in people; API keys cannot use it.");
    const missing = (rule.scopes ?? []).filter((s) => !cred.scopes.includes(s));
    if (missing.length)
      throw forbidden(`The API key lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")}.`);
    return {
      workspaceId: cred.workspaceId,
      actor: { type: "api_key", apiKeyId: cred.apiKeyId, createdBy: cred.createdBy },
      role: "admin",
      scopes: cred.scopes,
      visibleTeams: "all",
      requestId: meta.requestId,
      get ip() {
        return meta.ip;
      },
    };
  }
  const workspaceId = request.headers.get("desk-workspace");
  if (!workspaceId) {
    throw validationFailed([
      { location: "header.desk-workspace", message: "DESK-Workspace names the workspace to act in" },
    ]);
  }
  const member = await membership(deps, state, workspaceId, cred.userId, deps.clock.now().getTime());
  if (!member) throw notFound("Workspace");
  if (!roleAtLeast(member.role, rule.role ?? "viewer")) throw forbidden(`This needs the ${rule.role} role or higher.`);
  return {
    workspaceId,
    actor: { type: "user", userId: cred.userId, sessionId: cred.sessionId },
    role: member.role,
    scopes: null,
    // A copy: callers may not change the cached list.
    visibleTeams: member.visibleTeams === "all" ? "all" : [...member.visibleTeams],
    requestId: meta.requestId,
    get ip() {
      return meta.ip;
    },
  };
}

type ResolveCredential = (request: Request) => Promise<Credential>;

async function userContextOf(credential: ResolveCredential, request: Request): Promise<UserContext> {
  const cred = await credential(request);
  if (cred.kind !== "user") throw forbidden("This route is for signed-in people; API keys cannot use it.");
  const meta = requestMeta(request);
  return {
    ...cred,
    requestId: meta.requestId,
    get ip() {
      return meta.ip;
    },
  };
}

/** For idempotency: who the caller is, or null when the credential does not resolve. */
async function callerScopeOf(credential: ResolveCredential, request: Request): Promise<string | null> {
  try {
    const cred = await credential(request);
    if (cred.kind === "api_key") return `key:${cred.apiKeyId}`;
    return `user:${cred.userId}:${request.headers.get("desk-workspace") ?? ""}`;
  } catch {
    return null;
  }
}
