/**
 * The PostgreSQL builds of jobs.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./jobs.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { jobsTable } from "./jobs.definition";

export const jobs = pgTable("jobs", jobsTable);
