import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";

/**
 * Membership reads on the ticket write path, prepared once per connection. The SQL is portable; the
 * PostgreSQL twin runs it with `$n` parameters (without SQLite's `+?`, which only steers its planner).
 */
export interface MemberStatements {
  /** Whether this person is a member of the workspace who may be assigned tickets (not a viewer). */
  isAssignable(workspaceId: string, userId: string): Promise<boolean>;
}

const ASSIGNABLE = "SELECT user_id FROM members WHERE workspace_id = +? AND user_id = +? AND role <> 'viewer'";

export const memberStatements = dialectStatements<MemberStatements>({
  sqlite: (db: Queryable) => {
    const assignable = sqliteOf(db).query<{ user_id: string }, [string, string]>(ASSIGNABLE);
    return {
      isAssignable: async (workspaceId, userId) => assignable.get(workspaceId, userId) !== null,
    };
  },
  postgres: (db: Queryable) => {
    const assignable = postgresQuery<{ user_id: string }, [string, string]>(db, ASSIGNABLE);
    return {
      isAssignable: async (workspaceId, userId) => (await assignable.get(workspaceId, userId)) !== null,
    };
  },
});
