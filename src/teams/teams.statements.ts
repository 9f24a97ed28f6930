import type { Queryable } from "../db/database";
import { dialectStatements, inListSql, listParam } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import { teams } from "./teams.table";

/** A new team's row as stored (`private` 0 or 1). */
export type TeamInsert = {
  id: string;
  workspaceId: string;
  name: string;
  private: boolean;
  createdAt: string;
  updatedAt: string;
};

/**
 * Team writes and the team look-ups other features make on their hot paths (every ticket read asks
 * which private teams are hidden; the credential resolver asks a person's private teams), prepared
 * once per connection: drizzle builds each query's SQL text in JS on every call, which cost more than
 * running these small statements. The private teams of a member answer synchronously on SQLite
 * (`T | Promise<T>`, as the resolver's slot takes them). The PostgreSQL twin answers Promises, stores
 * `private` as a boolean rather than 0/1 (`IS TRUE`), and binds the visible teams as JSON text
 * (`inListSql`'s jsonb list).
 */
export interface TeamStatements {
  /** Stores a new team. */
  insertTeam(row: TeamInsert): Promise<void>;
  /** Adds these people to the team, in this order. */
  insertMembers(teamId: string, userIds: readonly string[]): Promise<void>;
  /** Removes every member of the team. */
  deleteMembers(teamId: string): Promise<void>;
  /** The team's member ids, in id order. */
  memberIds(teamId: string): Promise<string[]>;
  /** A team of the workspace, with whether it is private. */
  teamOfWorkspace(workspaceId: string, teamId: string): Promise<{ id: string; private: boolean } | undefined>;
  /** The team's id when it is a private team of the workspace. */
  privateTeamOfWorkspace(workspaceId: string, teamId: string): Promise<string | undefined>;
  /** Private teams of the workspace outside `visible` (the teams a caller belongs to). */
  privateTeamsOutside(workspaceId: string, visible: readonly string[]): Promise<string[]>;
  /** The private teams of a workspace a person is in (their tickets are visible to them). */
  privateTeamsOfMember(workspaceId: string, userId: string): string[] | Promise<string[]>;
}

/** Column names come from the table definition. */
const t = { id: teams.id.name, workspaceId: teams.workspaceId.name, private: teams.private.name };

const INSERT_TEAM =
  "INSERT INTO teams (id, workspace_id, name, private, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)";
const INSERT_MEMBER = "INSERT INTO team_members (team_id, user_id) VALUES (?, ?)";
const DELETE_MEMBERS = "DELETE FROM team_members WHERE team_id = ?";
const MEMBER_IDS = "SELECT user_id FROM team_members WHERE team_id = +? ORDER BY user_id";
const TEAM = `SELECT ${t.id} AS id, ${t.private} AS private FROM teams WHERE ${t.id} = +? AND ${t.workspaceId} = +?`;

export const teamStatements = dialectStatements<TeamStatements>({
  sqlite: (db: Queryable) => {
    const sqlite = sqliteOf(db);
    const insertTeam = sqlite.query<unknown, [string, string, string, number, string, string]>(INSERT_TEAM);
    const insertMember = sqlite.query<unknown, [string, string]>(INSERT_MEMBER);
    const deleteMembers = sqlite.query<unknown, [string]>(DELETE_MEMBERS);
    const memberIds = sqlite.query<{ user_id: string }, [string]>(MEMBER_IDS);
    const team = sqlite.query<{ id: string; private: number }, [string, string]>(TEAM);
    const privateTeam = sqlite.query<{ id: string }, [string, string]>(
      `SELECT ${t.id} AS id FROM teams WHERE ${t.id} = +? AND ${t.workspaceId} = +? AND ${t.private} = 1`,
    );
    const hidden = sqlite.query<{ id: string }, [string, string]>(
      `SELECT ${t.id} AS id FROM teams WHERE ${t.workspaceId} = +? AND ${t.private} = 1
       AND ${t.id} NOT IN (SELECT value FROM json_each(+?))`,
    );
    const ofMember = sqlite.query<{ team_id: string }, [string, string]>(
      "SELECT tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE t.workspace_id = ? AND tm.user_id = ? AND t.private = 1",
    );
    return {
      insertTeam: async (row) => {
        insertTeam.run(row.id, row.workspaceId, row.name, row.private ? 1 : 0, row.createdAt, row.updatedAt);
      },
      insertMembers: async (teamId, userIds) => {
        for (const userId of userIds) insertMember.run(teamId, userId);
      },
      deleteMembers: async (teamId) => {
        deleteMembers.run(teamId);
      },
      memberIds: async (teamId) => memberIds.all(teamId).map((r) => r.user_id),
      teamOfWorkspace: async (workspaceId, teamId) => {
        const row = team.get(teamId, workspaceId);
        return row ? { id: row.id, private: row.private === 1 } : undefined;
      },
      privateTeamOfWorkspace: async (workspaceId, teamId) => privateTeam.get(teamId, workspaceId)?.id ?? undefined,
      privateTeamsOutside: async (workspaceId, visible) => hidden.all(workspaceId, listParam(visible)).map((r) => r.id),
      privateTeamsOfMember: (workspaceId, userId) => ofMember.all(workspaceId, userId).map((r) => r.team_id),
    };
  },
  postgres: (db: Queryable) => {
    const insertTeam = postgresQuery<unknown, [string, string, string, boolean, string, string]>(db, INSERT_TEAM);
    const insertMember = postgresQuery<unknown, [string, string]>(db, INSERT_MEMBER);
    const deleteMembers = postgresQuery<unknown, [string]>(db, DELETE_MEMBERS);
    const memberIds = postgresQuery<{ user_id: string }, [string]>(db, MEMBER_IDS);
    const team = postgresQuery<{ id: string; private: boolean }, [string, string]>(db, TEAM);
    const privateTeam = postgresQuery<{ id: string }, [string, string]>(
      db,
      `SELECT ${t.id} AS id FROM teams WHERE ${t.id} = ? AND ${t.workspaceId} = ? AND ${t.private} IS TRUE`,
    );
    const hidden = postgresQuery<{ id: string }, [string, string]>(
      db,
      `SELECT ${t.id} AS id FROM teams WHERE ${t.workspaceId} = ? AND ${t.private} IS TRUE
       AND NOT (${inListSql(t.id, "postgres")})`,
    );
    const ofMember = postgresQuery<{ team_id: string }, [string, string]>(
      db,
      "SELECT tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE t.workspace_id = ? AND tm.user_id = ? AND t.private IS TRUE",
    );
    return {
      insertTeam: (row) => insertTeam.run(row.id, row.workspaceId, row.name, row.private, row.createdAt, row.updatedAt),
      insertMembers: async (teamId, userIds) => {
        for (const userId of userIds) await insertMember.run(teamId, userId);
      },
      deleteMembers: (teamId) => deleteMembers.run(teamId),
      memberIds: async (teamId) => (await memberIds.all(teamId)).map((r) => r.user_id),
      teamOfWorkspace: async (workspaceId, teamId) => {
        const row = await team.get(teamId, workspaceId);
        return row ? { id: row.id, private: row.private === true } : undefined;
      },
      privateTeamOfWorkspace: async (workspaceId, teamId) =>
        (await privateTeam.get(teamId, workspaceId))?.id ?? undefined,
      privateTeamsOutside: async (workspaceId, visible) =>
        (await hidden.all(workspaceId, listParam(visible))).map((r) => r.id),
      privateTeamsOfMember: async (workspaceId, userId) =>
        (await ofMember.all(workspaceId, userId)).map((r) => r.team_id),
    };
  },
});
