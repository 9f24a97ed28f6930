import { deskTable } from "../db/schema-kit";
import { workspacesTable } from "./workspaces.definition";

/** The builds of workspaces.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const workspaces = deskTable("workspaces", workspacesTable);
