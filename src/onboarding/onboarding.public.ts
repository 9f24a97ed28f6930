/** What features built above onboarding provide: checks for their steps, one port each. */
import { definePort } from "../lib/ports";
import type { OnboardingProbe } from "./onboarding.service";

export type { OnboardingProbe, OnboardingProbes } from "./onboarding.service";

export const installWidgetProbe = definePort<OnboardingProbe>("onboarding.installWidget");
export const publishArticleProbe = definePort<OnboardingProbe>("onboarding.publishArticle");
export const tryAssistantProbe = definePort<OnboardingProbe>("onboarding.tryAssistant");
