/** What the registry passes into onboarding: checks for the steps of features built above it. */
export type { OnboardingProbe, OnboardingProbes } from "./onboarding.service";
