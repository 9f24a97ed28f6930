/**
 * The PostgreSQL builds of companies.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./companies.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { companiesTable } from "./companies.definition";

export const companies = pgTable("companies", companiesTable);
