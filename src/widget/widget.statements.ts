import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
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

/** SQLite: today's statement, prepared once per connection. */
const sqliteWidgetStatements = (db: Queryable): WidgetStatements => {
  const liveByHash = sqliteOf(db).query<LiveVisitorSession & { verified: number }, [string, string]>(
    "SELECT id, workspace_id, contact_id, verified, claimed_email FROM visitor_sessions WHERE token_hash = ? AND expires_at > ?",
  );
  return {
    liveSessionByHash: async (tokenHash, now) => liveByHash.get(tokenHash, now),
  };
};

export const widgetStatements = dialectStatements<WidgetStatements>({ sqlite: sqliteWidgetStatements });
