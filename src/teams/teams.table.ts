import { deskTable } from "../db/schema-kit";
import { teamMembersTable, teamsTable } from "./teams.definition";

/** The builds of teams.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const teams = deskTable("teams", teamsTable);
export const teamMembers = deskTable("team_members", teamMembersTable);
