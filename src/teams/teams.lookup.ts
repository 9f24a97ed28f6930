import { eq } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { jsonList, preparedFor } from "../db/prepared";
import { teams } from "./teams.table";

/**
 * Team look-ups other features make on their hot paths (every ticket read asks which private
 * teams are hidden), prepared once per connection. Column names come from the table definition.
 */
const t = { id: teams.id.name, workspaceId: teams.workspaceId.name, private: teams.private.name };

const statements = preparedFor((sqlite) => ({
  team: sqlite.query<{ id: string; private: number }, [string, string]>(
    `SELECT ${t.id} AS id, ${t.private} AS private FROM teams WHERE ${t.id} = +? AND ${t.workspaceId} = +?`,
  ),
  privateTeam: sqlite.query<{ id: string }, [string, string]>(
    `SELECT ${t.id} AS id FROM teams WHERE ${t.id} = +? AND ${t.workspaceId} = +? AND ${t.private} = 1`,
  ),
  hidden: sqlite.query<{ id: string }, [string, string]>(
    `SELECT ${t.id} AS id FROM teams WHERE ${t.workspaceId} = +? AND ${t.private} = 1
       AND ${t.id} NOT IN (SELECT value FROM json_each(+?))`,
  ),
}));

/** A team of the workspace, with whether it is private. */
export async function teamOfWorkspace(
  db: Queryable,
  workspaceId: string,
  teamId: string,
): Promise<{ id: string; private: boolean } | undefined> {
  const row = statements(db).team.get(teamId, workspaceId);
  return row ? { id: row.id, private: row.private === 1 } : undefined;
}

/** The team's id when it is a private team of the workspace. */
export const privateTeamOfWorkspace = async (
  db: Queryable,
  workspaceId: string,
  teamId: string,
): Promise<string | undefined> => statements(db).privateTeam.get(teamId, workspaceId)?.id ?? undefined;

/** Private teams of the workspace outside `visible` (the teams a caller belongs to). */
export const privateTeamsOutside = async (
  db: Queryable,
  workspaceId: string,
  visible: readonly string[],
): Promise<string[]> =>
  statements(db)
    .hidden.all(workspaceId, jsonList(visible))
    .map((r) => r.id);

/** Every team of the workspace by name (triage chooses among them). */
export const teamsOfWorkspace = async (
  db: Queryable,
  workspaceId: string,
): Promise<Array<{ id: string; name: string; private: boolean }>> =>
  await db
    .select({ id: teams.id, name: teams.name, private: teams.private })
    .from(teams)
    .where(eq(teams.workspaceId, workspaceId))
    .orderBy(teams.name);
