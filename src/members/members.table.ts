import { sqliteTable } from "../db/schema-kit";
import { membersTable } from "./members.definition";

/** The SQLite build of members.definition.ts: what every query, type and migration uses. */
export const members = sqliteTable("members", membersTable);
