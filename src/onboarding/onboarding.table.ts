import { sqliteTable } from "../db/schema-kit";
import { onboardingDismissalsTable } from "./onboarding.definition";

/** The SQLite build of onboarding.definition.ts: what every query, type and migration uses. */
export const onboardingDismissals = sqliteTable("onboarding_dismissals", onboardingDismissalsTable);
