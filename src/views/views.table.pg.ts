/**
 * The PostgreSQL build of views.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./views.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { viewsTable } from "./views.definition";

export type { ViewFilters } from "./views.schemas";

export const views = pgTable("views", viewsTable);
