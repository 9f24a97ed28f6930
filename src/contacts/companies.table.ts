import { sqliteTable } from "../db/schema-kit";
import { companiesTable } from "./companies.definition";

/** The SQLite builds of companies.definition.ts: what every query, type and migration uses. */
export const companies = sqliteTable("companies", companiesTable);
