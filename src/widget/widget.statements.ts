import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";

/**
 * A visitor session that is still live, as the guard and a resume read it. SQLite's statement also
 * reads `verified` (its text is kept as it was); no caller needs it, so the answer's type leaves it out.
 */
export type LiveVisitorSession = {
  id: string;
  workspace_id: string;
  contact_id: string;
  claimed_email: string | null;
};

/**
 * The widget's visitor-session lookup, run on every visitor request (the guard resolves the token)
 * and so prepared once per connection. PostgreSQL's twin runs the same SELECT as a named prepared
 * statement (`$1`, `$2`); the ISO text times compare the same way there.
 */
export interface WidgetStatements {
  /** The session whose token hashes to `tokenHash` and which expires after `now` (ISO), or null. */
  liveSessionByHash(tokenHash: string, now: string): Promise<LiveVisitorSession | null>;
}

const LIVE_BY_HASH =
  "SELECT id, workspace_id, contact_id, verified, claimed_email FROM visitor_sessions WHERE token_hash = ? AND expires_at > ?";

/** SQLite: today's statement, prepared once per connection. */
const sqliteWidgetStatements = (db: Queryable): WidgetStatements => {
  const liveByHash = sqliteOf(db).query<LiveVisitorSession & { verified: number }, [string, string]>(LIVE_BY_HASH);
  return {
    liveSessionByHash: async (tokenHash, now) => liveByHash.get(tokenHash, now),
  };
};

/** PostgreSQL: the same text (`verified` comes back a boolean, which no caller reads). */
const postgresWidgetStatements = (db: Queryable): WidgetStatements => {
  const liveByHash = postgresQuery<LiveVisitorSession & { verified: boolean }, [string, string]>(db, LIVE_BY_HASH);
  return {
    liveSessionByHash: (tokenHash, now) => liveByHash.get(tokenHash, now),
  };
};

export const widgetStatements = dialectStatements<WidgetStatements>({
  sqlite: sqliteWidgetStatements,
  postgres: postgresWidgetStatements,
});
