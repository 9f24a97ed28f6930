/**
 * The PostgreSQL builds of passkeys.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./passkeys.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { passkeyChallengesTable, passkeysTable } from "./passkeys.definition";

export const passkeys = pgTable("passkeys", passkeysTable);
export const passkeyChallenges = pgTable("passkey_challenges", passkeyChallengesTable);
