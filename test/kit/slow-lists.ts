import { sql } from "drizzle-orm";
import type { Queryable } from "../../src/db/database";
import { defineRead } from "../../src/db/read-pool";
import { companyListRead, contactRowsRead } from "../../src/contacts/contacts.public";
import { semanticFullTextRead } from "../../src/semantic-search/semantic-search.public";
import { ticketListRead, viewCountsRead } from "../../src/tickets/tickets.public";
import { listVisibleViews } from "../../src/views/views.public";

/**
 * The lists' pooled reads as a worker answers them, except that `q: "spin"` (any page) or
 * `tag: "slowpages"` (a page after the first) first runs a real statement that keeps SQLite busy for
 * seconds: the broad query of a large workspace, without building one. A desk given
 * `slowListModules` loads these in its read workers in place of the real ones.
 * @public the workers find them among this module's exports; nothing imports them by name.
 */
async function spinFor(db: Queryable, query: { q?: string; tag?: string; cursor?: string }): Promise<void> {
  if (query.q === "spin" || (query.tag === "slowpages" && query.cursor !== undefined))
    db.all(
      sql`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000000) SELECT count(*) FROM c`,
    );
}

export const slowTicketListRead = defineRead(
  ticketListRead.name,
  async (db, params: Parameters<typeof ticketListRead.run>[1]) => {
    await spinFor(db, params.query);
    return ticketListRead.run(db, params);
  },
);

export const slowContactRowsRead = defineRead(
  contactRowsRead.name,
  async (db, params: Parameters<typeof contactRowsRead.run>[1]) => {
    await spinFor(db, params.query);
    return contactRowsRead.run(db, params);
  },
);

export const slowCompanyListRead = defineRead(
  companyListRead.name,
  async (db, params: Parameters<typeof companyListRead.run>[1]) => {
    await spinFor(db, params.query);
    return companyListRead.run(db, params);
  },
);

export const slowSemanticFullTextRead = defineRead(
  semanticFullTextRead.name,
  async (db, params: Parameters<typeof semanticFullTextRead.run>[1]) => {
    await spinFor(db, params);
    return semanticFullTextRead.run(db, params);
  },
);

/** A view whose filters search for "spin" makes the counts spin. */
export const slowViewCountsRead = defineRead(
  viewCountsRead.name,
  async (db, params: Parameters<typeof viewCountsRead.run>[1]) => {
    for (const view of await listVisibleViews(db, params.ctx)) await spinFor(db, { q: view.filters.q ?? undefined });
    return viewCountsRead.run(db, params);
  },
);

export const slowListModules = [import.meta.url];
