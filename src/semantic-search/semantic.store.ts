import { first } from "../db/store";
import { and, asc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { semanticStatements } from "./semantic.statements";
import { type SemanticKind, semanticDirty, semanticState, semanticVectors } from "./semantic.table";

/** Marks a document for (re-)embedding; an article carries its text. */
export async function markDirty(
  db: Queryable,
  input: { workspaceId: string; kind: SemanticKind; docId: string; text?: string | null; now: string },
): Promise<void> {
  await db
    .insert(semanticDirty)
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
    });
}

/**
 * The next `seq` of a workspace's documents of one kind (each kind is an index of its own), from
 * its counter row, in the caller's transaction (a rolled-back write gives its seq back). A missing
 * row starts after the stored vectors, so seqs continue whatever wrote them.
 */
const nextSeq = async (db: Queryable, workspaceId: string, kind: SemanticKind): Promise<number> =>
  await semanticStatements(db).nextVectorSeq(workspaceId, kind);

/** Stores (or, with a null vector, removes) a document's embedding. */
export async function storeVector(
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
): Promise<void> {
  const seq = await nextSeq(db, input.workspaceId, input.kind);
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
  await db
    .insert(semanticVectors)
    .values(values)
    .onConflictDoUpdate({ target: [semanticVectors.kind, semanticVectors.docId], set: values });
}

/** A document gone: its vector becomes a tombstone, its pending mark is dropped. */
export async function forgetDocument(
  db: Queryable,
  input: { workspaceId: string; kind: SemanticKind; docId: string; now: string },
): Promise<void> {
  await db.delete(semanticDirty).where(and(eq(semanticDirty.kind, input.kind), eq(semanticDirty.docId, input.docId)));
  const stored = first(
    await db
      .select({ model: semanticVectors.model, workspaceId: semanticVectors.workspaceId })
      .from(semanticVectors)
      .where(and(eq(semanticVectors.kind, input.kind), eq(semanticVectors.docId, input.docId)))
      .limit(1),
  );
  if (stored && stored.workspaceId === input.workspaceId)
    await storeVector(db, { ...input, model: stored.model, vector: null });
}

export type DirtyRow = typeof semanticDirty.$inferSelect;

/** The oldest marks of a workspace: one embedding batch. */
export const dirtyBatch = async (db: Queryable, workspaceId: string, limit: number): Promise<DirtyRow[]> =>
  await db
    .select()
    .from(semanticDirty)
    .where(eq(semanticDirty.workspaceId, workspaceId))
    .orderBy(asc(semanticDirty.markedAt))
    .limit(limit);

/** Drops the marks a batch handled, unless the document was marked again meanwhile. */
export async function clearDirty(db: Queryable, rows: DirtyRow[]): Promise<void> {
  for (const row of rows)
    await db
      .delete(semanticDirty)
      .where(
        and(
          eq(semanticDirty.kind, row.kind),
          eq(semanticDirty.docId, row.docId),
          eq(semanticDirty.version, row.version),
        ),
      );
}

/** Workspaces with marks waiting (the sweep's list). */
export const workspacesWithDirty = async (db: Queryable, limit = 500): Promise<string[]> =>
  (await db.selectDistinct({ workspaceId: semanticDirty.workspaceId }).from(semanticDirty).limit(limit)).map(
    (r) => r.workspaceId,
  );

export const stateOf = async (db: Queryable, workspaceId: string) =>
  first(await db.select().from(semanticState).where(eq(semanticState.workspaceId, workspaceId)).limit(1));

export async function saveState(
  db: Queryable,
  workspaceId: string,
  state: { model: string; backfillAfter: string; backfilledAt: string | null },
): Promise<void> {
  await db
    .insert(semanticState)
    .values({ workspaceId, ...state })
    .onConflictDoUpdate({ target: semanticState.workspaceId, set: state });
}

/** Which of these tickets already have a vector of `model` (the backfill skips them). */
export async function embeddedAmong(
  db: Queryable,
  model: string,
  kind: SemanticKind,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set(
    (
      await db
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
    ).map((r) => r.id),
  );
}

/** Articles embedded on another model (their text is kept): marked again after a model change. */
export const articlesOnOtherModel = async (db: Queryable, workspaceId: string, model: string) =>
  await db
    .select({ docId: semanticVectors.docId, text: semanticVectors.sourceText })
    .from(semanticVectors)
    .where(
      and(
        eq(semanticVectors.workspaceId, workspaceId),
        eq(semanticVectors.kind, "article"),
        or(ne(semanticVectors.model, model)),
        sql`${semanticVectors.vector} IS NOT NULL`,
      ),
    );
