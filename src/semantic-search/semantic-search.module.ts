import type { Deps } from "../deps";
import { articlesByIds } from "../kb/kb.public";
import { defineModule } from "../module";
import { backfillJob, embedJob, markChanged, sweepJob } from "./semantic.jobs";
import { semanticSearchRoutes } from "./semantic.routes";
import type { ArticlesById } from "./semantic.service";

/**
 * Semantic search (src/semantic-search): embeddings of tickets and articles, GET /v1/ai/search.
 * `articlesById` presents article hits (the knowledge base's reader; tests present their own).
 */
export function semanticSearchModuleWith(articlesById: ArticlesById) {
  return defineModule({
    name: "semantic-search",
    routes: (deps: Deps) => [semanticSearchRoutes(deps, articlesById)],
    jobs: [embedJob, backfillJob, sweepJob],
    consumers: [markChanged],
  });
}

export const semanticSearchModule = semanticSearchModuleWith(articlesByIds);
