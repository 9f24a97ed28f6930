import { eq } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { teamStatements } from "./teams.statements";
import { teams } from "./teams.table";

/**
 * Team look-ups other features make on their hot paths (every ticket read asks which private
 * teams are hidden), prepared once per connection (src/teams/teams.statements.ts).
 */

/** A team of the workspace, with whether it is private. */
export const teamOfWorkspace = (
  db: Queryable,
  workspaceId: string,
  teamId: string,
): Promise<{ id: string; private: boolean } | undefined> => teamStatements(db).teamOfWorkspace(workspaceId, teamId);

/** The team's id when it is a private team of the workspace. */
export const privateTeamOfWorkspace = (
  db: Queryable,
  workspaceId: string,
  teamId: string,
): Promise<string | undefined> => teamStatements(db).privateTeamOfWorkspace(workspaceId, teamId);

/** Private teams of the workspace outside `visible` (the teams a caller belongs to). */
export const privateTeamsOutside = (
  db: Queryable,
  workspaceId: string,
  visible: readonly string[],
): Promise<string[]> => teamStatements(db).privateTeamsOutside(workspaceId, visible);

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
