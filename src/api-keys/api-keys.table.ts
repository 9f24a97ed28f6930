import { sqliteTable } from "../db/schema-kit";
import { apiKeysTable } from "./api-keys.definition";

/** The SQLite builds of api-keys.definition.ts: what every query, type and migration uses. */
export const apiKeys = sqliteTable("api_keys", apiKeysTable);
