import { Elysia } from "elysia";
import { z } from "zod";
import { spendAiRequest } from "../ai/ai.public";
import { READ_POOL_NOTE } from "../db/read-pool";
import type { Deps } from "../deps";
import { queryText, TicketSchema } from "../tickets/tickets.public";
import { type ArticlesById, semanticSearch } from "./semantic.service";

const SemanticSearchQuery = z.object({ q: queryText(500).default("") });

export function semanticSearchRoutes(deps: Deps, articlesById: ArticlesById | null) {
  return new Elysia({ prefix: "/ai", tags: ["ai"] }).use(deps.guard).get(
    "/search",
    async ({ ctx, query, set, request }) => {
      await spendAiRequest(deps, ctx);
      const answer = await semanticSearch(deps, ctx, query.q, articlesById, request.signal);
      set.headers["desk-search-mode"] = answer.mode;
      return answer.result;
    },
    {
      access: { role: "viewer", scopes: ["tickets:read"] },
      query: SemanticSearchQuery,
      response: {
        200: z.object({
          tickets: z.array(TicketSchema),
          contacts: z.array(z.record(z.string(), z.unknown())),
          articles: z.array(z.unknown()),
        }),
      },
      detail: {
        summary: "Semantic search: up to five tickets, contacts and articles, by meaning and words",
        description:
          "The shape of GET /v1/search. Tickets are ranked by reciprocal rank fusion (k = 60) of the full-text ranking and the nearest embeddings (cosine similarity of the subject and the customer's own words, at least 0.2), among the tickets the caller's ticket list shows (private teams' only for their members, spam left out); published knowledge-base articles by their embeddings; contacts by full text. Without an embedding model (DESK_AI_EMBEDDING_MODEL), before anything is embedded, or when the provider fails, the answer is full text alone; the `Desk-Search-Mode` header says which (`hybrid` or `full_text`). Embedding the query is free (recorded as `search_index`, cost 0). 404 `ai_disabled` when AI is off; counts toward the caller's 60 AI requests a minute (429 `rate_limited` past them)." +
          ` The full-text half: ${READ_POOL_NOTE}`,
      },
    },
  );
}
