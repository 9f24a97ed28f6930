/**
 * The PostgreSQL builds of teams.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./teams.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { teamMembersTable, teamsTable } from "./teams.definition";

export const teams = pgTable("teams", teamsTable);
export const teamMembers = pgTable("team_members", teamMembersTable);
