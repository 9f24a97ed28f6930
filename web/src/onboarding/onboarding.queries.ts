export const onboardingKeys = { current: ["onboarding"] as const };
