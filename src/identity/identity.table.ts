import { deskTable } from "../db/schema-kit";
import { sessionsTable, usersTable } from "./identity.definition";

/** The builds of identity.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const users = deskTable("users", usersTable);
export const sessions = deskTable("sessions", sessionsTable);
