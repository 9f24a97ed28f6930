import { deskTable } from "../db/schema-kit";
import { idempotencyKeysTable } from "./idempotency.definition";

/** The builds of idempotency.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const idempotencyKeys = deskTable("idempotency_keys", idempotencyKeysTable);
