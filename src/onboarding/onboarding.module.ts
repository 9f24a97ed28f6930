import { defineModule } from "../module";
import { installWidgetProbe, publishArticleProbe, tryAssistantProbe } from "./onboarding.public";
import { onboardingRoutes } from "./onboarding.routes";

/** The setup checklist (`/v1/onboarding`). Features above this one provide their steps' checks. */
export const onboardingModule = defineModule({
  name: "onboarding",
  routes: (deps) => [
    onboardingRoutes(deps, {
      install_widget: deps.ports.get(installWidgetProbe),
      publish_article: deps.ports.get(publishArticleProbe),
      try_assistant: deps.ports.get(tryAssistantProbe),
    }),
  ],
  ports: [installWidgetProbe, publishArticleProbe, tryAssistantProbe],
});
