import { sqliteTable } from "../db/schema-kit";
import { pictureLookupsTable } from "./pictures.definition";

/** The SQLite build of pictures.definition.ts: what every query, type and migration uses. */
export const pictureLookups = sqliteTable("picture_lookups", pictureLookupsTable);
