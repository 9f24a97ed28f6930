/**
 * The PostgreSQL build of onboarding.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./onboarding.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { onboardingDismissalsTable } from "./onboarding.definition";

export const onboardingDismissals = pgTable("onboarding_dismissals", onboardingDismissalsTable);
