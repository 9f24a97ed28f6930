import { sqliteTable } from "../db/schema-kit";
import { appAttestChallengesTable, appAttestKeysTable } from "./app-attest.definition";

/** The SQLite builds of app-attest.definition.ts: what every query, type and migration uses. */
export const appAttestKeys = sqliteTable("app_attest_keys", appAttestKeysTable);
export const appAttestChallenges = sqliteTable("app_attest_challenges", appAttestChallengesTable);
