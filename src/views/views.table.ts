import { deskTable } from "../db/schema-kit";
import { viewsTable } from "./views.definition";

export type { ViewFilters } from "./views.schemas";

/** The builds of views.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const views = deskTable("views", viewsTable);
