import { defineModule } from "../module";
import { onboardingRoutes } from "./onboarding.routes";
import type { OnboardingProbes } from "./onboarding.service";

/** The setup checklist (`/v1/onboarding`). Features above this one pass their steps' checks in. */
export const onboardingModule = (probes: OnboardingProbes = {}) =>
  defineModule({
    name: "onboarding",
    routes: (deps) => [onboardingRoutes(deps, probes)],
  });
