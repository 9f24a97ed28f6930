/**
 * The PostgreSQL builds of identity.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./identity.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { sessionsTable, usersTable } from "./identity.definition";

export const users = pgTable("users", usersTable);
export const sessions = pgTable("sessions", sessionsTable);
