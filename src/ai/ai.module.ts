import type { Deps } from "../deps";
import { defineModule } from "../module";
import { type GroundingSources, noGrounding } from "./ai.context";
import { aiBackground } from "./ai.jobs";
import { aiRoutes } from "./ai.routes";
import type { AssignAfterTriage, DecisionEngine, TriageSettingsReader } from "./ai.triage";

export type AiModuleSeams = {
  /** Published knowledge-base articles for drafts and answers (the knowledge base's search). */
  groundingSources?: GroundingSources;
  /** The workspace's TriageSettings (the triage settings feature); default: SPEC.md's defaults. */
  triageSettings?: TriageSettingsReader;
  /** Assignment after an automatic triage when `assign_after_triage` is on. */
  assignAfterTriage?: AssignAfterTriage;
  /** A third-party decision engine for triage (`engine_vendor`); default: the configured model. */
  decisionEngine?: DecisionEngine;
};

/** AI features (src/ai): provider, agent features, triage, metering; seams for the features that plug in. */
export function aiModule(seams: AiModuleSeams = {}) {
  const triage = { readSettings: seams.triageSettings ?? null, engine: seams.decisionEngine ?? null };
  const background = aiBackground({ triage, assignAfterTriage: seams.assignAfterTriage ?? null });
  return defineModule({
    name: "ai",
    routes: (deps: Deps) => [
      aiRoutes(deps, {
        grounding: seams.groundingSources ?? noGrounding,
        triage,
      }),
    ],
    jobs: background.jobs,
    consumers: background.consumers,
  });
}
