/**
 * The PostgreSQL builds of app-attest.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./app-attest.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { appAttestChallengesTable, appAttestKeysTable } from "./app-attest.definition";

export const appAttestKeys = pgTable("app_attest_keys", appAttestKeysTable);
export const appAttestChallenges = pgTable("app_attest_challenges", appAttestChallengesTable);
