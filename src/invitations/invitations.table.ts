import { sqliteTable } from "../db/schema-kit";
import { invitationsTable } from "./invitations.definition";

/** The SQLite build of invitations.definition.ts: what every query, type and migration uses. */
export const invitations = sqliteTable("invitations", invitationsTable);
