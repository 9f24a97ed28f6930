/**
 * The PostgreSQL build of idempotency.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./idempotency.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { idempotencyKeysTable } from "./idempotency.definition";

export const idempotencyKeys = pgTable("idempotency_keys", idempotencyKeysTable);
