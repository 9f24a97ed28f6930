import type { Deps } from "../deps";
import { defineModule } from "../module";
import { backfillJob, embedJob, markChanged, sweepJob } from "./semantic.jobs";
import { semanticSearchRoutes } from "./semantic.routes";
import type { ArticlesById } from "./semantic.service";

export type SemanticSearchSeams = {
  /** Published articles by id as GET /v1/search presents them (the knowledge base's public reader). */
  articlesById?: ArticlesById;
};

/** Semantic search (src/semantic-search): embeddings of tickets and articles, GET /v1/ai/search. */
export function semanticSearchModule(seams: SemanticSearchSeams = {}) {
  return defineModule({
    name: "semantic-search",
    routes: (deps: Deps) => [semanticSearchRoutes(deps, seams.articlesById ?? null)],
    jobs: [embedJob, backfillJob, sweepJob],
    consumers: [markChanged],
  });
}
