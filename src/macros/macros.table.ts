import { sqliteTable } from "../db/schema-kit";
import { macrosTable } from "./macros.definition";

/** The SQLite build of the one definition: what every query, type and migration of macros uses. */
export const macros = sqliteTable("macros", macrosTable);
