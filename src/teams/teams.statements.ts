import { preparedFor } from "../db/prepared";

/**
 * The statements of team writes, prepared once per connection: drizzle builds each query's SQL
 * text in JS on every call, which cost more than running these small statements.
 */
export const teamStatements = preparedFor((sqlite) => ({
  insertTeam: sqlite.query<unknown, [string, string, string, number, string, string]>(
    "INSERT INTO teams (id, workspace_id, name, private, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  ),
  insertMember: sqlite.query<unknown, [string, string]>("INSERT INTO team_members (team_id, user_id) VALUES (?, ?)"),
  deleteMembers: sqlite.query<unknown, [string]>("DELETE FROM team_members WHERE team_id = ?"),
  memberIds: sqlite.query<{ user_id: string }, [string]>(
    "SELECT user_id FROM team_members WHERE team_id = +? ORDER BY user_id",
  ),
}));
