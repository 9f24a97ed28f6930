import { sqliteTable } from "../db/schema-kit";
import { teamMembersTable, teamsTable } from "./teams.definition";

/** The SQLite builds of teams.definition.ts: what every query, type and migration uses. */
export const teams = sqliteTable("teams", teamsTable);
export const teamMembers = sqliteTable("team_members", teamMembersTable);
