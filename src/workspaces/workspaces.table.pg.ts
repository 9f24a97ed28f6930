/**
 * The PostgreSQL build of workspaces.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./workspaces.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { workspacesTable } from "./workspaces.definition";

export const workspaces = pgTable("workspaces", workspacesTable);
