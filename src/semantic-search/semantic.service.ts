import { hasScope, roleAtLeast, type RequestContext } from "../auth/context";
import { searchContacts } from "../contacts/contacts.public";
import type { Queryable } from "../db/database";
import { defineRead } from "../db/read-pool";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { embed, requireAi } from "../ai/ai.public";
import {
  liveTicketCountsOfContacts,
  SEARCH_RESULTS,
  searchTickets,
  visibleTicketsAmong,
  type TicketJson,
} from "../tickets/tickets.public";
import { indexedCount, nearest, type VectorHit } from "./semantic.index";
import { ensureBackfill } from "./semantic.jobs";

/** Candidates each ranking contributes to the fusion. */
const CANDIDATES = 50;
/** Reciprocal rank fusion's constant (Cormack et al.): damps the weight of the very first ranks. */
const RRF_K = 60;
/** Below this cosine similarity a document is not a semantic match at all. */
export const MIN_SIMILARITY = 0.2;

/** The knowledge base's articles by id, presented as GET /v1/search lists them (wired at merge). */
export type ArticlesById = (db: Queryable, ctx: RequestContext, ids: string[]) => unknown[] | Promise<unknown[]>;

export type SemanticSearchAnswer = {
  result: { tickets: TicketJson[]; contacts: Record<string, unknown>[]; articles: unknown[] };
  mode: "hybrid" | "full_text";
};

/** Reciprocal rank fusion of ranked id lists: Σ 1 / (k + rank), best first. */
export function fuse(rankings: string[][]): string[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings)
    for (const [rank, id] of ranking.entries()) scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

/**
 * GET /v1/ai/search: full-text and semantic rankings fused (hybrid) when the workspace has
 * embeddings; full text alone when no embedding model is configured, nothing is embedded yet or
 * the provider fails. Tickets are those the tickets list would show the caller (workspace, private
 * teams, spam left out); contacts as GET /v1/search finds them.
 */
export async function semanticSearch(
  deps: Deps,
  ctx: RequestContext,
  q: string,
  articlesById: ArticlesById | null,
  signal?: AbortSignal,
): Promise<SemanticSearchAnswer> {
  await requireAi(deps, ctx.workspaceId);
  const db = deps.db;
  const mayReadContacts = ctx.scopes === null ? roleAtLeast(ctx.role, "viewer") : hasScope(ctx, "contacts:read");
  const { contacts, tickets: fullText } = await deps.reads.run(semanticFullTextRead, ctx.workspaceId, {
    ctx,
    q,
    contacts: mayReadContacts,
  });
  const hits = await semanticHits(deps, ctx.workspaceId, q, signal);
  if (!hits)
    return { result: { tickets: fullText.slice(0, SEARCH_RESULTS), contacts, articles: [] }, mode: "full_text" };
  const ticketIds = fuse([fullText.map((t) => t.id), hits.ticket.map((h) => h.id)]);
  const articleIds = hits.article.map((h) => h.id);
  return {
    result: {
      tickets: await visibleTicketsAmong(db, ctx, ticketIds, SEARCH_RESULTS),
      contacts,
      articles:
        articleIds.length && articlesById ? (await articlesById(db, ctx, articleIds)).slice(0, SEARCH_RESULTS) : [],
    },
    mode: "hybrid",
  };
}

/**
 * The full-text half on a read pool worker: its word match grows with the workspace's messages
 * and contacts. A search never needs the caller's same-turn writes (a reader sees committed data).
 */
export const semanticFullTextRead = defineRead(
  "semantic-search.full-text",
  async (db, p: { ctx: RequestContext; q: string; contacts: boolean }) => ({
    contacts: p.contacts ? await searchContacts(db, p.ctx, p.q, SEARCH_RESULTS, liveTicketCountsOfContacts) : [],
    tickets: await searchTickets(db, p.ctx, p.q, CANDIDATES),
  }),
);

/** The semantic rankings (tickets, articles), or null when embeddings are unavailable for this workspace now. */
async function semanticHits(deps: Deps, workspaceId: string, q: string, signal?: AbortSignal) {
  const model = deps.config.ai?.embeddingModel;
  if (!model || !q.trim()) return null;
  await transact(deps.db, async (tx) => await ensureBackfill(tx, workspaceId, model));
  // Nothing embedded yet, or the indexes still loading (a large workspace's first query): full text.
  const at = deps.clock.now().getTime();
  const kinds: Array<"ticket" | "article"> = [];
  for (const kind of ["ticket", "article"] as const)
    if (await indexedCount(deps.db, workspaceId, kind, model, at)) kinds.push(kind);
  if (kinds.length === 0) return null;
  let vector: number[] | undefined;
  try {
    vector = (await embed(deps, { workspaceId, texts: [q], signal }))?.[0];
  } catch (error) {
    deps.logger.warn({ subsystem: "semantic-search", error: String(error) }, "query embedding failed: full text only");
    return null;
  }
  if (!vector) return null;
  const hits = { ticket: [] as VectorHit[], article: [] as VectorHit[] };
  for (const kind of kinds)
    hits[kind] =
      (await nearest(deps.db, workspaceId, model, vector, { limit: CANDIDATES, minScore: MIN_SIMILARITY, kind, at })) ??
      [];
  return hits;
}
