/**
 * The PostgreSQL build of pictures.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./pictures.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { pictureLookupsTable } from "./pictures.definition";

export const pictureLookups = pgTable("picture_lookups", pictureLookupsTable);
