import { hasScope, roleAtLeast, type RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { defineRead } from "../db/read-pool";
import { searchContacts } from "../contacts/contacts.public";
import { searchArticles } from "../kb/kb.public";
import { liveTicketCountsOfContacts, SEARCH_RESULTS, searchTickets } from "../tickets/tickets.public";

/** GET /v1/search: five tickets, five contacts (when the caller may read contacts), five articles (when it may read the knowledge base). */
export async function searchEverything(db: Queryable, ctx: RequestContext, q: string) {
  const mayReadContacts = ctx.scopes === null ? roleAtLeast(ctx.role, "viewer") : hasScope(ctx, "contacts:read");
  return {
    tickets: await searchTickets(db, ctx, q),
    contacts: mayReadContacts ? await searchContacts(db, ctx, q, SEARCH_RESULTS, liveTicketCountsOfContacts) : [],
    articles: await searchArticles(db, ctx, q, SEARCH_RESULTS),
  };
}

/** The same search on a read pool worker: its cost grows with the workspace's messages. */
export const searchEverythingRead = defineRead(
  "global-search.everything",
  async (db, { ctx, q }: { ctx: RequestContext; q: string }) => await searchEverything(db, ctx, q),
);
