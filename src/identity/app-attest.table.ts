import { deskTable } from "../db/schema-kit";
import { appAttestChallengesTable, appAttestKeysTable } from "./app-attest.definition";

/** The builds of app-attest.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const appAttestKeys = deskTable("app_attest_keys", appAttestKeysTable);
export const appAttestChallenges = deskTable("app_attest_challenges", appAttestChallengesTable);
