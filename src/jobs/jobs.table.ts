import { deskTable } from "../db/schema-kit";
import { jobsTable } from "./jobs.definition";

/** The builds of jobs.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const jobs = deskTable("jobs", jobsTable);
