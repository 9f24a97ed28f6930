import { sqliteTable } from "../db/schema-kit";
import { workspacesTable } from "./workspaces.definition";

/** The SQLite build of workspaces.definition.ts: what every query, type and migration uses. */
export const workspaces = sqliteTable("workspaces", workspacesTable);
