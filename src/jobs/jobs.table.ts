import { sqliteTable } from "../db/schema-kit";
import { jobsTable } from "./jobs.definition";

/** The SQLite builds of jobs.definition.ts: what every query, type and migration uses. */
export const jobs = sqliteTable("jobs", jobsTable);
