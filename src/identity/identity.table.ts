import { sqliteTable } from "../db/schema-kit";
import { sessionsTable, usersTable } from "./identity.definition";

/** The SQLite builds of identity.definition.ts: what every query, type and migration uses. */
export const users = sqliteTable("users", usersTable);
export const sessions = sqliteTable("sessions", sessionsTable);
