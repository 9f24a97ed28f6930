import { eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements, inListSql, listParam } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteDrizzleOf, sqliteOf } from "../db/sqlite/prepared";
import { first } from "../db/store";
import type { UserRow } from "./auth.present";
import { usersTable } from "./identity.definition";
import { users } from "./identity.table";

/** What the credential check reads of a session on every request. */
export type SessionCheck = {
  user_id: string;
  revoked_at: string | null;
  expires_at: string;
  authenticated_at: string;
  mfa_verified: number;
};

/** A person as a ref shows them. */
export type UserRefRow = { id: string; name: string; email: string; avatarUrl: string | null };

/** The columns of an API key's creator GET /v1/me answers with (`mfa_enabled` as stored, 0 or 1). */
export type CreatorRow = {
  id: string;
  name: string;
  email: string;
  avatar_url: string | null;
  avatar_source: string | null;
  mfa_enabled: number;
  locale: string | null;
  created_at: string;
};

/**
 * The reads of people and sessions that run on every request or every presented ticket (GET /v1/me,
 * the credential check, user refs, presence), prepared once per connection. Some answer
 * synchronously on SQLite (`T | Promise<T>`), where today's callers run without an async frame; the
 * PostgreSQL twin answers Promises there, runs the same SQL with `$n` parameters, and binds the ref
 * list as an array (`id = ANY($1)`).
 */
export interface IdentityStatements {
  /** The API key's creator as GET /v1/me shows it, or null when no such person. */
  creator(userId: string): CreatorRow | null | Promise<CreatorRow | null>;
  /** A person's whole row, or undefined. */
  userRow(userId: string): (UserRow | undefined) | Promise<UserRow | undefined>;
  /** What the credential check reads of the session an access token names, or null. */
  sessionCheck(sessionId: string): (SessionCheck | null) | Promise<SessionCheck | null>;
  /** The people behind these ids as refs show them (ids of no user are left out). */
  userRefRows(ids: readonly string[]): Promise<UserRefRow[]>;
  /** A person's name, or undefined (presence's slot, src/realtime/presence.ts `PresenceLookups.userName`). */
  userName(userId: string): (string | undefined) | Promise<string | undefined>;
}

const CREATOR =
  "SELECT id, name, email, avatar_url, avatar_source, mfa_enabled, locale, created_at FROM users WHERE id = ?";
const SESSION = "SELECT user_id, revoked_at, expires_at, authenticated_at, mfa_verified FROM sessions WHERE id = ?";
const REF = 'SELECT id, name, email, avatar_url AS "avatarUrl" FROM users WHERE';
const NAME = "SELECT name FROM users WHERE id = ?";

export const identityStatements = dialectStatements<IdentityStatements>({
  sqlite: (db: Queryable) => {
    const sqlite = sqliteOf(db);
    const creator = sqlite.query<CreatorRow, [string]>(CREATOR);
    // Compiled once: building this select of every column cost more than two thirds of a served GET /v1/me.
    const sqliteUsers = usersTable.sqlite;
    const userRow = sqliteDrizzleOf(db)
      .select()
      .from(sqliteUsers)
      .where(eq(sqliteUsers.id, sql.placeholder("userId")))
      .prepare();
    const session = sqlite.query<SessionCheck, [string]>(SESSION);
    const refOne = sqlite.query<UserRefRow, [string]>(`${REF} id = +?`);
    const refMany = sqlite.query<UserRefRow, [string]>(`${REF} ${inListSql("id")}`);
    const name = sqlite.query<{ name: string }, [string]>(NAME);
    return {
      creator: (userId) => creator.get(userId),
      // Answered at once on SQLite: every signed-in request and GET /v1/me ask these (benchmarked).
      userRow: (userId) => userRow.get({ userId }),
      sessionCheck: (sessionId) => session.get(sessionId),
      userRefRows: async (ids) => {
        if (ids.length === 1) {
          const row = refOne.get(ids[0]!);
          return row ? [row] : [];
        }
        return refMany.all(listParam(ids));
      },
      userName: (userId) => name.get(userId)?.name,
    };
  },
  postgres: (db: Queryable) => {
    // Flags are booleans on PostgreSQL; these rows answer them as SQLite stores them (0 or 1).
    const creator = postgresQuery<CreatorRow, [string]>(
      db,
      CREATOR.replace("mfa_enabled,", "mfa_enabled::int AS mfa_enabled,"),
    );
    const session = postgresQuery<SessionCheck, [string]>(
      db,
      SESSION.replace("mfa_verified", "mfa_verified::int AS mfa_verified"),
    );
    const refMany = postgresQuery<UserRefRow, [string]>(db, `${REF} ${inListSql("id", "postgres")}`);
    const name = postgresQuery<{ name: string }, [string]>(db, NAME);
    return {
      creator: (userId) => creator.get(userId),
      userRow: async (userId) => first(await db.select().from(users).where(eq(users.id, userId)).limit(1)),
      sessionCheck: (sessionId) => session.get(sessionId),
      userRefRows: (ids) => refMany.all(listParam(ids)),
      userName: async (userId) => (await name.get(userId))?.name,
    };
  },
});
