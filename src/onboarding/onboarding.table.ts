import { deskTable } from "../db/schema-kit";
import { onboardingDismissalsTable } from "./onboarding.definition";

/** The builds of onboarding.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const onboardingDismissals = deskTable("onboarding_dismissals", onboardingDismissalsTable);
