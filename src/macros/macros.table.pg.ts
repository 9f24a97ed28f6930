/**
 * The PostgreSQL build of the macros table under the name the feature imports: `tsconfig.pg.json`
 * resolves `./macros.table` here (`moduleSuffixes`) to type-check the feature against PostgreSQL.
 * Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { macrosTable } from "./macros.definition";

export const macros = pgTable("macros", macrosTable);
