import { deskTable } from "../db/schema-kit";
import { passkeyChallengesTable, passkeysTable } from "./passkeys.definition";

/** The builds of passkeys.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const passkeys = deskTable("passkeys", passkeysTable);
export const passkeyChallenges = deskTable("passkey_challenges", passkeyChallengesTable);
