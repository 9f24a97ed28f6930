/**
 * The PostgreSQL build of invitations.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./invitations.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { invitationsTable } from "./invitations.definition";

export const invitations = pgTable("invitations", invitationsTable);
