import { deskTable } from "../db/schema-kit";
import { companiesTable } from "./companies.definition";

/** The builds of companies.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const companies = deskTable("companies", companiesTable);
