import { deskTable } from "../db/schema-kit";
import { macrosTable } from "./macros.definition";

/** The builds of the one definition this process runs on (schema-kit `deskTable`): what every query, type and migration of macros uses. */
export const macros = deskTable("macros", macrosTable);
