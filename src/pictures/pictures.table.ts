import { deskTable } from "../db/schema-kit";
import { pictureLookupsTable } from "./pictures.definition";

/** The builds of pictures.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const pictureLookups = deskTable("picture_lookups", pictureLookupsTable);
