import { deskTable } from "../db/schema-kit";
import { apiKeysTable } from "./api-keys.definition";

/** The builds of api-keys.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const apiKeys = deskTable("api_keys", apiKeysTable);
