import { sqliteTable } from "../db/schema-kit";
import { idempotencyKeysTable } from "./idempotency.definition";

/** The SQLite build of idempotency.definition.ts: what every query, type and migration uses. */
export const idempotencyKeys = sqliteTable("idempotency_keys", idempotencyKeysTable);
