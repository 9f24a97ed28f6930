/**
 * The PostgreSQL build of password-resets.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./password-resets.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { passwordResetsTable } from "./password-resets.definition";

export const passwordResets = pgTable("password_resets", passwordResetsTable);
