/**
 * The PostgreSQL build of members.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./members.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { membersTable } from "./members.definition";

export const members = pgTable("members", membersTable);
