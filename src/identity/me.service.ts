import { one } from "../db/store";
import { eq, sql } from "drizzle-orm";
import type { UserJson, UserRow } from "./auth.present";
import { presentUser } from "./auth.present";
import { apiKeyCallerOf } from "./identity.ports";
import { users } from "./identity.table";
import { canonicalLocale } from "./me.schemas";
import type { Credential, WorkspaceMembership } from "../auth/credentials";
import { preparedFor } from "../db/prepared";
import type { Deps } from "../deps";
import { unauthorized } from "../lib/errors";

export type MeAnswer = {
  user: UserJson | null;
  workspaces: WorkspaceMembership[];
  api_key?: { id: string; name: string; scopes: string[] };
};

type CreatorRow = {
  id: string;
  name: string;
  email: string;
  avatar_url: string | null;
  avatar_source: string | null;
  mfa_enabled: number;
  locale: string | null;
  created_at: string;
};

/** The API-key answer's creator, prepared once (GET /v1/me for a key is a benchmarked hot path). */
const creatorStatement = preparedFor((sqlite) =>
  sqlite.query<CreatorRow, [string]>(
    "SELECT id, name, email, avatar_url, avatar_source, mfa_enabled, locale, created_at FROM users WHERE id = ?",
  ),
);

/** A person's row, compiled once per connection: building this select of every column cost more than two thirds of a served GET /v1/me. */
const userRowQuery = preparedFor((_sqlite, db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("userId")))
    .prepare(),
);

export const findUserRow = async (deps: Pick<Deps, "db">, userId: string): Promise<UserRow | undefined> =>
  userRowQuery(deps.db).get({ userId });

/**
 * GET /v1/me for any credential. A person: themselves and their workspaces. An API key: its
 * creator (or null), its own workspace with the role keys act with (admin), and the key itself.
 */
export async function describeCaller(
  deps: Pick<Deps, "db" | "credentials" | "ports">,
  credential: Credential,
): Promise<MeAnswer> {
  if (credential.kind === "api_key") {
    const key = await deps.ports.get(apiKeyCallerOf)(deps.db, credential.apiKeyId);
    if (!key) throw unauthorized();
    const creator = key.createdBy === null ? null : creatorStatement(deps.db).get(key.createdBy);
    const user: UserJson | null = creator ? { ...creator, mfa_enabled: creator.mfa_enabled === 1 } : null;
    return {
      user,
      workspaces: [{ ...key.workspace, role: "admin" }],
      api_key: { id: key.id, name: key.name, scopes: credential.scopes },
    };
  }
  const user = await findUserRow(deps, credential.userId);
  if (!user) throw unauthorized();
  return { user: presentUser(user), workspaces: await deps.credentials.workspacesOf(user.id) };
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
