import { sqliteTable } from "../db/schema-kit";
import { viewsTable } from "./views.definition";

export type { ViewFilters } from "./views.schemas";

/** The SQLite build of views.definition.ts: what every query, type and migration uses. */
export const views = sqliteTable("views", viewsTable);
