import { sqliteTable } from "../db/schema-kit";
import { passkeyChallengesTable, passkeysTable } from "./passkeys.definition";

/** The SQLite builds of passkeys.definition.ts: what every query, type and migration uses. */
export const passkeys = sqliteTable("passkeys", passkeysTable);
export const passkeyChallenges = sqliteTable("passkey_challenges", passkeyChallengesTable);
