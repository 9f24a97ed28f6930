import { one } from "../db/store";
import { eq } from "drizzle-orm";
import type { UserJson, UserRow } from "./auth.present";
import { presentUser } from "./auth.present";
import { apiKeyCallerOf } from "./identity.ports";
import { users } from "./identity.table";
import { type CreatorRow, identityStatements } from "./identity.statements";
import { canonicalLocale } from "./me.schemas";
import type { Credential, WorkspaceMembership } from "../auth/credentials";
import type { Deps } from "../deps";
import { unauthorized } from "../lib/errors";

export type MeAnswer = {
  user: UserJson | null;
  workspaces: WorkspaceMembership[];
  api_key?: { id: string; name: string; scopes: string[] };
};

export const findUserRow = async (deps: Pick<Deps, "db">, userId: string): Promise<UserRow | undefined> =>
  identityStatements(deps.db).userRow(userId);

/**
 * GET /v1/me for any credential. A person: themselves and their workspaces. An API key: its
 * creator (or null), its own workspace with the role keys act with (admin), and the key itself.
 */
export async function describeCaller(
  deps: Pick<Deps, "db" | "credentials" | "ports">,
  credential: Credential,
): Promise<MeAnswer> {
  if (credential.kind === "api_key") {
    const found = deps.ports.get(apiKeyCallerOf)(deps.db, credential.apiKeyId);
    const key = found instanceof Promise ? await found : found;
    if (!key) throw unauthorized();
    const answer = (creator: CreatorRow | null): MeAnswer => ({
      user: creator ? { ...creator, mfa_enabled: creator.mfa_enabled === 1 } : null,
      workspaces: [{ ...key.workspace, role: "admin" }],
      api_key: { id: key.id, name: key.name, scopes: credential.scopes },
    });
    if (key.createdBy === null) return answer(null);
    // SQLite answers at once (a benchmarked hot path: no extra await there); another engine's Promise is awaited.
    const creator = identityStatements(deps.db).creator(key.createdBy);
    return creator instanceof Promise ? answer(await creator) : answer(creator);
  }
  // SQLite answers these at once (a benchmarked hot path: no extra await there); another engine's Promise is awaited.
  const found = identityStatements(deps.db).userRow(credential.userId);
  const user = found instanceof Promise ? await found : found;
  if (!user) throw unauthorized();
  const memberships = deps.credentials.workspacesOf(user.id);
  return { user: presentUser(user), workspaces: memberships instanceof Promise ? await memberships : memberships };
}

export async function updateMe(
  deps: Pick<Deps, "db" | "clock">,
  userId: string,
  input: { name?: string; locale?: string | null },
): Promise<UserRow> {
  const changes: Partial<UserRow> = { updatedAt: deps.clock.now().toISOString() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.locale !== undefined) changes.locale = input.locale === null ? null : canonicalLocale(input.locale);
  const row = one(await deps.db.update(users).set(changes).where(eq(users.id, userId)).returning());
  if (!row) throw unauthorized();
  return row;
}
