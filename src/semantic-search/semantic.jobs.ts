import { z } from "zod";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { type ConsumerContext, defineConsumer } from "../events/consumers";
import { enqueue } from "../jobs/enqueue";
import { defineJob, type JobContext } from "../jobs/define";
import { embed } from "../ai/ai.public";
import { kbArticleCreated, kbArticleDeleted, kbArticleUpdated } from "../kb/kb.public";
import {
  liveTicketIdsAfter,
  messageCreated,
  ticketCreated,
  ticketDeleted,
  ticketTextsForEmbedding,
  ticketUpdated,
} from "../tickets/tickets.public";
import { evictIdleIndexes, packVector } from "./semantic.index";
import {
  articlesOnOtherModel,
  clearDirty,
  dirtyBatch,
  embeddedAmong,
  forgetDocument,
  markDirty,
  saveState,
  stateOf,
  storeVector,
  workspacesWithDirty,
} from "./semantic.store";
import type { Tx } from "../db/database";

/** Texts per embeddings request: one provider call each, committed batch by batch (resumable). */
export const EMBED_BATCH = 64;
/** Tickets the backfill marks per transaction. */
const BACKFILL_PAGE = 1000;

const WorkspaceJob = z.object({ workspace_id: z.string() });

/**
 * Embeds a workspace's marked documents, batch after batch until none is left: each batch is one
 * free, metered provider call (`search_index`) and one transaction storing its vectors and
 * clearing its marks, so a crash or a provider failure resumes where it stopped (the runner
 * retries with backoff). A ticket gone (deleted, merged) leaves a tombstone instead.
 */
export const embedJob = defineJob({
  name: "semantic.embed",
  schema: WorkspaceJob,
  retry: { maxAttempts: 6, baseDelayMs: 30_000 },
  concurrency: 1,
  async handler({ workspace_id: workspaceId }, { deps, signal }: JobContext<Deps>) {
    const model = deps.config.ai?.embeddingModel;
    if (!model) return;
    for (;;) {
      if (signal.aborted) return;
      const batch = await dirtyBatch(deps.db, workspaceId, EMBED_BATCH);
      if (batch.length === 0) return;
      const ticketTexts = await ticketTextsForEmbedding(
        deps.db,
        workspaceId,
        batch.filter((r) => r.kind === "ticket").map((r) => r.docId),
      );
      const textOf = (row: (typeof batch)[number]) =>
        row.kind === "ticket" ? ticketTexts.get(row.docId) : (row.sourceText ?? undefined);
      const live = batch.filter((row) => textOf(row)?.trim());
      const vectors = live.length ? await embed(deps, { workspaceId, texts: live.map((r) => textOf(r)!), signal }) : [];
      if (vectors === null) return;
      const now = deps.clock.now().toISOString();
      await transact(deps.db, async (tx) => {
        for (const [i, row] of live.entries())
          await storeVector(tx, {
            workspaceId,
            kind: row.kind,
            docId: row.docId,
            model,
            vector: packVector(vectors[i]!),
            text: row.kind === "article" ? row.sourceText : null,
            now,
          });
        for (const row of batch)
          if (!live.includes(row)) await forgetDocument(tx, { workspaceId, kind: row.kind, docId: row.docId, now });
        await clearDirty(tx, batch);
      });
    }
  },
});

/**
 * Marks every live ticket of a workspace without a vector of the current model (and re-marks its
 * articles embedded on another model), page by page from a stored cursor, then starts the embedding.
 */
export const backfillJob = defineJob({
  name: "semantic.backfill",
  schema: WorkspaceJob,
  retry: { maxAttempts: 4, baseDelayMs: 30_000 },
  concurrency: 1,
  async handler({ workspace_id: workspaceId }, { deps }: JobContext<Deps>) {
    const model = deps.config.ai?.embeddingModel;
    if (!model) return;
    const now = deps.clock.now().toISOString();
    const state = await stateOf(deps.db, workspaceId);
    let after = state?.model === model ? state.backfillAfter : "";
    if (state?.model === model && state.backfilledAt) return;
    await transact(deps.db, async (tx) => {
      for (const article of await articlesOnOtherModel(tx, workspaceId, model))
        await markDirty(tx, { workspaceId, kind: "article", docId: article.docId, text: article.text, now });
    });
    for (;;) {
      const done = await transact(deps.db, async (tx) => {
        const ids = await liveTicketIdsAfter(tx, workspaceId, after, BACKFILL_PAGE);
        const embedded = await embeddedAmong(tx, model, "ticket", ids);
        for (const id of ids)
          if (!embedded.has(id)) await markDirty(tx, { workspaceId, kind: "ticket", docId: id, now });
        if (ids.length) after = ids.at(-1)!;
        const finished = ids.length < BACKFILL_PAGE;
        await saveState(tx, workspaceId, { model, backfillAfter: after, backfilledAt: finished ? now : null });
        if (finished) await kickEmbedding(tx, workspaceId, deps.clock.now());
        return finished;
      });
      if (done) return;
    }
  },
});

/** Every five minutes: workspaces whose marks wait without a job (a mark made as a run ended) get one. */
export const sweepJob = defineJob({
  name: "semantic.sweep",
  schema: z.object({}),
  schedule: "*/5 * * * *",
  retry: { maxAttempts: 1 },
  async handler(_payload, { deps }: JobContext<Deps>) {
    evictIdleIndexes(deps.db, deps.clock.now().getTime());
    if (!deps.config.ai?.embeddingModel) return;
    await transact(deps.db, async (tx) => {
      for (const workspaceId of await workspacesWithDirty(tx)) await kickEmbedding(tx, workspaceId, deps.clock.now());
    });
  },
});

/** Changes arriving together are embedded together: the job starts this long after the first mark. */
export const EMBED_DEBOUNCE_MS = 10_000;

/** Starts the workspace's embedding job shortly, unless one is already waiting (it will take the new marks). */
export const kickEmbedding = async (tx: Tx, workspaceId: string, now: Date) =>
  await enqueue(
    tx,
    embedJob,
    { workspace_id: workspaceId },
    {
      workspaceId,
      uniqueKey: `semantic.embed:${workspaceId}`,
      runAt: new Date(now.getTime() + EMBED_DEBOUNCE_MS),
    },
  );

/** Starts a workspace's backfill unless it is done on the current model (idempotent). */
export async function ensureBackfill(tx: Tx, workspaceId: string, model: string): Promise<void> {
  const state = await stateOf(tx, workspaceId);
  if (state?.model === model && state.backfilledAt) return;
  await enqueue(
    tx,
    backfillJob,
    { workspace_id: workspaceId },
    { workspaceId, uniqueKey: `semantic.backfill:${workspaceId}` },
  );
}

/** The text an article is embedded from: its title and plain body. */
export const articleText = (title: string, body: string) => `${title}\n\n${body}`.slice(0, 8000);

/**
 * Re-embeds what changed: a new ticket, a new subject, a customer's reply; a deleted ticket loses
 * its vector. Published articles (the knowledge base's `kb_article.*` events) are embedded from
 * their title and body; a draft or deleted one leaves the index. Does nothing without an
 * embedding model (DESK_AI_EMBEDDING_MODEL); the backfill catches up when one is set.
 */
export const markChanged = defineConsumer({
  name: "semantic.mark-changed",
  events: [
    ticketCreated,
    ticketUpdated,
    ticketDeleted,
    messageCreated,
    kbArticleCreated,
    kbArticleUpdated,
    kbArticleDeleted,
  ],
  async handle(tx, event, { deps }: ConsumerContext<Deps>) {
    const model = deps.config.ai?.embeddingModel;
    if (!model) return;
    const workspaceId = event.workspace_id;
    const now = deps.clock.now().toISOString();
    const ticket = async (docId: string) => await markDirty(tx, { workspaceId, kind: "ticket", docId, now });
    switch (event.type) {
      case "ticket.created":
        await ticket(event.data.ticket.id);
        break;
      case "ticket.updated": {
        // A new subject changes what is embedded; a merge drops the ticket merged away (the job
        // finds it gone) and re-embeds its target, which now holds its messages.
        const data = event.data;
        if (data.changes.some((c) => c === "subject" || c === "merged_into_id")) {
          await ticket(data.ticket.id);
          if (data.ticket.merged_into_id) await ticket(data.ticket.merged_into_id);
        }
        break;
      }
      case "ticket.deleted":
        await forgetDocument(tx, { workspaceId, kind: "ticket", docId: event.data.ticket_id, now });
        break;
      case "message.created": {
        const data = event.data;
        if (data.message.direction === "inbound" && data.message.kind === "reply") await ticket(data.ticket_id);
        break;
      }
      case "kb_article.created":
      case "kb_article.updated": {
        const article = event.data.kb_article;
        if (article.status === "published")
          await indexArticle(
            tx,
            { workspaceId, id: article.id, text: articleText(article.title, article.body_text) },
            now,
          );
        else await forgetDocument(tx, { workspaceId, kind: "article", docId: article.id, now });
        break;
      }
      case "kb_article.deleted":
        await forgetDocument(tx, { workspaceId, kind: "article", docId: event.data.kb_article_id, now });
        break;
    }
    await ensureBackfill(tx, workspaceId, model);
    await kickEmbedding(tx, workspaceId, deps.clock.now());
  },
});

/** Feeds one published article (re-embedded when its text changes); the knowledge base's seam. */
export async function indexArticle(tx: Tx, input: { workspaceId: string; id: string; text: string }, now: string) {
  await markDirty(tx, { workspaceId: input.workspaceId, kind: "article", docId: input.id, text: input.text, now });
}
