import { blob, index, integer, primaryKey, table, text, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): semantic.table.ts builds it for
// SQLite (queries, types, migrations), semantic.table.pg.ts for PostgreSQL.

export const SEMANTIC_KINDS = ["ticket", "article"] as const;
export type SemanticKind = (typeof SEMANTIC_KINDS)[number];

/**
 * One embedding per document (a ticket's subject and customer text, or a published article), unit
 * length, little-endian float32. `seq` grows with every write of the workspace's documents of that
 * kind (a deletion keeps the row with a null vector), so every process's in-memory index catches up
 * by reading what is newer.
 */
export const semanticVectorsTable = table(
  "semantic_vectors",
  {
    workspaceId: workspaceId(),
    kind: text("kind", { enum: SEMANTIC_KINDS }).notNull(),
    docId: text("doc_id").notNull(),
    model: text("model").notNull(),
    vector: blob("vector"),
    /** An article's text as fed (tickets are read again from their messages). */
    sourceText: text("source_text"),
    seq: integer("seq").notNull(),
    embeddedAt: text("embedded_at").notNull(),
  },
  (t) => [primaryKey(t.kind, t.docId), index("semantic_vectors_ws_kind_seq_idx").on(t.workspaceId, t.kind, t.seq)],
);

/**
 * The last `seq` given out per workspace and kind. Taken with one upsert in the vector write's
 * transaction, so two writers never get the same seq (reading max(seq) + 1 lets both read the same
 * max); seeded from the vectors by migrations/custom/0150_semantic_seqs.sql.
 */
export const semanticSeqsTable = table(
  "semantic_seqs",
  {
    workspaceId: workspaceId(),
    kind: text("kind", { enum: SEMANTIC_KINDS }).notNull(),
    lastSeq: integer("last_seq").notNull(),
  },
  (t) => [primaryKey(t.workspaceId, t.kind)],
);

/** Documents waiting to be (re-)embedded: the embedding job's queue, kept until their vector is stored. */
export const semanticDirtyTable = table(
  "semantic_dirty",
  {
    workspaceId: workspaceId(),
    kind: text("kind", { enum: SEMANTIC_KINDS }).notNull(),
    docId: text("doc_id").notNull(),
    /** An article's text to embed; null for tickets. */
    sourceText: text("source_text"),
    /** Bumped by each new mark: a mark made while its batch was embedding survives that batch. */
    version: integer("version").notNull().default(1),
    markedAt: text("marked_at").notNull(),
  },
  (t) => [primaryKey(t.kind, t.docId), index("semantic_dirty_ws_idx").on(t.workspaceId, t.markedAt)],
);

/** How far a workspace's backfill got, and on which embedding model (a new model starts it again). */
export const semanticStateTable = table("semantic_state", {
  workspaceId: text("workspace_id").primaryKey(),
  model: text("model").notNull(),
  backfillAfter: text("backfill_after").notNull().default(""),
  backfilledAt: text("backfilled_at"),
});
