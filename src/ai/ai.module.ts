import { automationAi } from "../automations/automations.public";
import type { Deps } from "../deps";
import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { aiForAutomations } from "./ai.automations";
import { type AiBackground, aiBackground } from "./ai.jobs";
import { assignAfterTriage, groundingSources, triageSettings } from "./ai.public";
import { aiRoutes } from "./ai.routes";
import type { DecisionEngine } from "./ai.triage";

/**
 * AI features (src/ai): provider, agent features, triage, metering. Its ports take what features
 * above it plug in (grounding articles, triage settings, assignment after triage); it answers
 * automations' AI conditions and ai_triage action. `decisionEngine`: a third-party decision engine
 * for triage (`engine_vendor`); default: the configured model.
 */
export function aiModuleWith(options: { decisionEngine?: DecisionEngine } = {}) {
  const engine = options.decisionEngine ?? null;
  const seamsOf = (deps: Deps): AiBackground => ({
    triage: { readSettings: deps.ports.get(triageSettings), engine },
    assignAfterTriage: deps.ports.get(assignAfterTriage),
  });
  const background = aiBackground(seamsOf);
  return defineModule({
    name: "ai",
    routes: (deps: Deps) => [
      aiRoutes(deps, { grounding: deps.ports.get(groundingSources), triage: seamsOf(deps).triage }),
    ],
    jobs: background.jobs,
    consumers: background.consumers,
    ports: [groundingSources, triageSettings, assignAfterTriage],
    provides: [provide(automationAi, aiForAutomations(background.automationTriageJob))],
  });
}

export const aiModule = aiModuleWith();
