import { Elysia } from "elysia";
import { z } from "zod";
import { READ_POOL_NOTE } from "../db/read-pool";
import type { Deps } from "../deps";
import { KbArticleSchema } from "../kb/kb.public";
import { queryText, TicketSchema } from "../tickets/tickets.public";
import { searchEverythingRead } from "./global-search.service";

export const SearchQuery = z.object({ q: queryText(500).default("") });

export function searchRoutes(deps: Deps) {
  return new Elysia({ tags: ["search"] })
    .use(deps.guard)
    .get("/search", ({ ctx, query }) => deps.reads.run(searchEverythingRead, ctx.workspaceId, { ctx, q: query.q }), {
      access: { role: "viewer", scopes: ["tickets:read"] },
      query: SearchQuery,
      response: {
        200: z.object({
          tickets: z.array(TicketSchema),
          contacts: z.array(z.record(z.string(), z.unknown())),
          articles: z.array(KbArticleSchema),
        }),
      },
      detail: {
        summary:
          "Full-text search (prefix matching): up to five tickets, contacts and articles, by relevance then recency",
        description: READ_POOL_NOTE,
      },
    });
}
