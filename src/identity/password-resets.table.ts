import { sqliteTable } from "../db/schema-kit";
import { passwordResetsTable } from "./password-resets.definition";

/** The SQLite build of password-resets.definition.ts: what every query, type and migration uses. */
export const passwordResets = sqliteTable("password_resets", passwordResetsTable);
