/**
 * The PostgreSQL builds of api-keys.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./api-keys.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { apiKeysTable } from "./api-keys.definition";

export const apiKeys = pgTable("api_keys", apiKeysTable);
