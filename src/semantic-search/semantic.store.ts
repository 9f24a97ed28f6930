import { and, asc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { type SemanticKind, semanticDirty, semanticSeqs, semanticState, semanticVectors } from "./semantic.table";

/** Marks a document for (re-)embedding; an article carries its text. */
export function markDirty(
  db: Queryable,
  input: { workspaceId: string; kind: SemanticKind; docId: string; text?: string | null; now: string },
): void {
  db.insert(semanticDirty)
    .values({
      workspaceId: input.workspaceId,
      kind: input.kind,
      docId: input.docId,
      sourceText: input.text ?? null,
      markedAt: input.now,
    })
    .onConflictDoUpdate({
      target: [semanticDirty.kind, semanticDirty.docId],
      set: { sourceText: input.text ?? null, version: sql`${semanticDirty.version} + 1`, markedAt: input.now },
    })
    .run();
}

/**
 * The next `seq` of a workspace's documents of one kind (each kind is an index of its own), from
 * its counter row, in the caller's transaction (a rolled-back write gives its seq back). A missing
 * row starts after the stored vectors, so seqs continue whatever wrote them.
 */
const nextSeq = (db: Queryable, workspaceId: string, kind: SemanticKind): number => {
  const v = semanticVectors;
  const stored = sql`(SELECT coalesce(max(${v.seq}), 0) + 1 FROM ${v} WHERE ${v.workspaceId} = ${workspaceId} AND ${v.kind} = ${kind})`;
  const row = db
    .insert(semanticSeqs)
    .values({ workspaceId, kind, lastSeq: stored })
    .onConflictDoUpdate({
      target: [semanticSeqs.workspaceId, semanticSeqs.kind],
      set: { lastSeq: sql`${semanticSeqs.lastSeq} + 1` },
    })
    .returning({ seq: semanticSeqs.lastSeq })
    .get();
  return Number(row?.seq);
};

/** Stores (or, with a null vector, removes) a document's embedding. */
export function storeVector(
  db: Queryable,
  input: {
    workspaceId: string;
    kind: SemanticKind;
    docId: string;
    model: string;
    vector: Buffer | null;
    text?: string | null;
    now: string;
  },
): void {
  const seq = nextSeq(db, input.workspaceId, input.kind);
  const values = {
    workspaceId: input.workspaceId,
    kind: input.kind,
    docId: input.docId,
    model: input.model,
    vector: input.vector,
    sourceText: input.text ?? null,
    seq,
    embeddedAt: input.now,
  };
  db.insert(semanticVectors)
    .values(values)
    .onConflictDoUpdate({ target: [semanticVectors.kind, semanticVectors.docId], set: values })
    .run();
}

/** A document gone: its vector becomes a tombstone, its pending mark is dropped. */
export function forgetDocument(
  db: Queryable,
  input: { workspaceId: string; kind: SemanticKind; docId: string; now: string },
): void {
  db.delete(semanticDirty)
    .where(and(eq(semanticDirty.kind, input.kind), eq(semanticDirty.docId, input.docId)))
    .run();
  const stored = db
    .select({ model: semanticVectors.model, workspaceId: semanticVectors.workspaceId })
    .from(semanticVectors)
    .where(and(eq(semanticVectors.kind, input.kind), eq(semanticVectors.docId, input.docId)))
    .get();
  if (stored && stored.workspaceId === input.workspaceId)
    storeVector(db, { ...input, model: stored.model, vector: null });
}

export type DirtyRow = typeof semanticDirty.$inferSelect;

/** The oldest marks of a workspace: one embedding batch. */
export const dirtyBatch = (db: Queryable, workspaceId: string, limit: number): DirtyRow[] =>
  db
    .select()
    .from(semanticDirty)
    .where(eq(semanticDirty.workspaceId, workspaceId))
    .orderBy(asc(semanticDirty.markedAt))
    .limit(limit)
    .all();

/** Drops the marks a batch handled, unless the document was marked again meanwhile. */
export function clearDirty(db: Queryable, rows: DirtyRow[]): void {
  for (const row of rows)
    db.delete(semanticDirty)
      .where(
        and(
          eq(semanticDirty.kind, row.kind),
          eq(semanticDirty.docId, row.docId),
          eq(semanticDirty.version, row.version),
        ),
      )
      .run();
}

/** Workspaces with marks waiting (the sweep's list). */
export const workspacesWithDirty = (db: Queryable, limit = 500): string[] =>
  db
    .selectDistinct({ workspaceId: semanticDirty.workspaceId })
    .from(semanticDirty)
    .limit(limit)
    .all()
    .map((r) => r.workspaceId);

export const stateOf = (db: Queryable, workspaceId: string) =>
  db.select().from(semanticState).where(eq(semanticState.workspaceId, workspaceId)).get();

export function saveState(
  db: Queryable,
  workspaceId: string,
  state: { model: string; backfillAfter: string; backfilledAt: string | null },
): void {
  db.insert(semanticState)
    .values({ workspaceId, ...state })
    .onConflictDoUpdate({ target: semanticState.workspaceId, set: state })
    .run();
}

/** Which of these tickets already have a vector of `model` (the backfill skips them). */
export function embeddedAmong(db: Queryable, model: string, kind: SemanticKind, ids: string[]): Set<string> {
  if (ids.length === 0) return new Set();
  return new Set(
    db
      .select({ id: semanticVectors.docId })
      .from(semanticVectors)
      .where(
        and(
          eq(semanticVectors.kind, kind),
          inArray(semanticVectors.docId, ids),
          eq(semanticVectors.model, model),
          sql`${semanticVectors.vector} IS NOT NULL`,
        ),
      )
      .all()
      .map((r) => r.id),
  );
}

/** Articles embedded on another model (their text is kept): marked again after a model change. */
export const articlesOnOtherModel = (db: Queryable, workspaceId: string, model: string) =>
  db
    .select({ docId: semanticVectors.docId, text: semanticVectors.sourceText })
    .from(semanticVectors)
    .where(
      and(
        eq(semanticVectors.workspaceId, workspaceId),
        eq(semanticVectors.kind, "article"),
        or(ne(semanticVectors.model, model)),
        sql`${semanticVectors.vector} IS NOT NULL`,
      ),
    )
    .all();
