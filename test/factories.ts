import { users } from "../src/identity/identity.table";
import type { RequestContext, Role, Scope } from "../src/auth/context";
import { createSession, issueAccessToken } from "../src/identity/sessions";
import { createApiKey } from "../src/api-keys/api-keys.service";
import { newId } from "../src/lib/ids";
import { members } from "../src/members/members.table";
import { createWorkspace } from "../src/workspaces/workspaces.service";
import type { TestDesk } from "./harness";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export type TestUser = {
  id: string;
  email: string;
  name: string;
  password: string | null;
  token: string;
  sessionId: string;
  refreshToken: string;
};

/** A user with a live session. A password hash is made only when asked for (argon2id is slow). */
export async function createUser(
  desk: TestDesk,
  input: { email?: string; name?: string; password?: string; mfaVerified?: boolean } = {},
): Promise<TestUser> {
  const id = newId();
  const email = (input.email ?? `user-${unique()}@example.test`).toLowerCase();
  const name = input.name ?? `User ${unique()}`;
  const now = new Date().toISOString();
  await desk.deps.db.insert(users).values({
    id,
    email,
    name,
    passwordHash: input.password ? await Bun.password.hash(input.password) : null,
    createdAt: now,
    updatedAt: now,
  });
  const { session, refreshToken } = await createSession(desk.deps.db, {
    userId: id,
    client: "web",
    mfaVerified: input.mfaVerified ?? false,
    now: new Date(),
  });
  const token = await issueAccessToken(desk.deps.tokens, session);
  return { id, email, name, password: input.password ?? null, token, sessionId: session.id, refreshToken };
}

export type Member = TestUser & {
  role: Role;
  workspaceId: string;
  headers: Record<string, string>;
  ctx: RequestContext;
};

const memberHeaders = (token: string, workspaceId: string) => ({
  authorization: `Bearer ${token}`,
  "desk-workspace": workspaceId,
});

const contextFor = (user: TestUser, workspaceId: string, role: Role): RequestContext => ({
  workspaceId,
  actor: { type: "user", userId: user.id, sessionId: user.sessionId },
  role,
  scopes: null,
  visibleTeams: role === "owner" || role === "admin" ? "all" : [],
  requestId: "test",
  ip: null,
});

/** A fresh workspace with its owner signed in: every test builds its own, so none share state. */
export async function createWorkspaceWithOwner(desk: TestDesk, name = `Acme ${unique()}`) {
  const owner = await createUser(desk);
  const workspace = await createWorkspace({ userId: owner.id }, { name }, desk.deps);
  const ownerMember: Member = {
    ...owner,
    role: "owner",
    workspaceId: workspace.id,
    headers: memberHeaders(owner.token, workspace.id),
    ctx: contextFor(owner, workspace.id, "owner"),
  };
  return { workspace, owner: ownerMember };
}

/** Adds a member with a role to a workspace. */
export async function addMember(
  desk: TestDesk,
  workspaceId: string,
  role: Role,
  input: { email?: string; name?: string } = {},
): Promise<Member> {
  const user = await createUser(desk, input);
  await desk.deps.db
    .insert(members)
    .values({ workspaceId, userId: user.id, role, createdAt: new Date().toISOString() });
  return {
    ...user,
    role,
    workspaceId,
    headers: memberHeaders(user.token, workspaceId),
    ctx: contextFor(user, workspaceId, role),
  };
}

/** An API key with the given scopes; returns its secret and ready headers. */
export async function createKey(desk: TestDesk, owner: Member, scopes: Scope[]) {
  const { row, secret } = await createApiKey(owner.ctx, { name: `key ${unique()}`, scopes }, desk.deps);
  return { id: row.id, secret, headers: { authorization: `Bearer ${secret}` } };
}

export const ALL_SCOPES: Scope[] = [
  "tickets:read",
  "tickets:write",
  "contacts:read",
  "contacts:write",
  "kb:read",
  "kb:write",
  "settings:read",
  "settings:write",
  "realtime",
];
