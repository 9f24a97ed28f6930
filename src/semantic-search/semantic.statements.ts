import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import { type SemanticKind, semanticVectors } from "./semantic.table";

/** A stored vector row as the in-memory index reads it: kind, doc id, model, vector (null: tombstone), seq. */
export type VectorRow = [SemanticKind, string, string, Uint8Array | null, number];

/**
 * The semantic index's seq statements: each vector write takes the next seq of its workspace and
 * kind from the counter row, and each process's index catches up by reading the rows past the seq
 * it last saw. PostgreSQL's twin takes the seq with the same upsert (`ON CONFLICT … DO UPDATE …
 * RETURNING`), whose row lock holds later writers until commit, and reads `bytea` vectors.
 */
export interface SemanticStatements {
  /** Takes the next seq of the workspace's vectors of one kind (a missing counter starts after the stored vectors). */
  nextVectorSeq(workspaceId: string, kind: SemanticKind): Promise<number>;
  /** Up to `limit` stored vector rows of the workspace and kind with a seq above `afterSeq`, in seq order. */
  vectorsAfter(workspaceId: string, kind: SemanticKind, afterSeq: number, limit: number): Promise<VectorRow[]>;
}

/** SQLite: the statements prepared once per connection; the counter's text is the one drizzle wrote. */
const sqliteSemanticStatements = (db: Queryable): SemanticStatements => {
  const sqlite = sqliteOf(db);
  const nextSeq = sqlite.query<{ last_seq: number }, [string, string, string, string]>(
    `insert into "semantic_seqs" ("workspace_id", "kind", "last_seq") values (?, ?, (SELECT coalesce(max("semantic_vectors"."seq"), 0) + 1 FROM "semantic_vectors" WHERE "semantic_vectors"."workspace_id" = ? AND "semantic_vectors"."kind" = ?)) on conflict ("semantic_seqs"."workspace_id", "semantic_seqs"."kind") do update set "last_seq" = "semantic_seqs"."last_seq" + 1 returning "last_seq"`,
  );
  // Values as arrays: the query builder's object mapping costs seconds at 100,000 rows. Column
  // names come from the table definition.
  const v = semanticVectors;
  const after = sqlite.query<Record<string, unknown>, [string, string, number, number]>(
    `SELECT ${v.kind.name}, ${v.docId.name}, ${v.model.name}, ${v.vector.name}, ${v.seq.name} FROM semantic_vectors
       WHERE ${v.workspaceId.name} = ? AND ${v.kind.name} = ? AND ${v.seq.name} > ? ORDER BY ${v.seq.name} LIMIT ?`,
  );
  return {
    nextVectorSeq: async (workspaceId, kind) => Number(nextSeq.get(workspaceId, kind, workspaceId, kind)?.last_seq),
    vectorsAfter: async (workspaceId, kind, afterSeq, limit) =>
      after.values(workspaceId, kind, afterSeq, limit) as VectorRow[],
  };
};

/**
 * PostgreSQL: the same upsert (its conflict target unqualified, as PostgreSQL's grammar wants), whose
 * row lock holds a concurrent writer of the workspace and kind until this transaction ends; vectors
 * come back as `bytea` Buffers (Uint8Arrays).
 */
const postgresSemanticStatements = (db: Queryable): SemanticStatements => {
  const nextSeq = postgresQuery<{ last_seq: number }, [string, string, string, string]>(
    db,
    `insert into "semantic_seqs" ("workspace_id", "kind", "last_seq") values (?, ?, (SELECT coalesce(max("semantic_vectors"."seq"), 0) + 1 FROM "semantic_vectors" WHERE "semantic_vectors"."workspace_id" = ? AND "semantic_vectors"."kind" = ?)) on conflict ("workspace_id", "kind") do update set "last_seq" = "semantic_seqs"."last_seq" + 1 returning "last_seq"`,
  );
  const v = semanticVectors;
  type Row = { kind: SemanticKind; doc_id: string; model: string; vector: Uint8Array | null; seq: number };
  const after = postgresQuery<Row, [string, string, number, number]>(
    db,
    `SELECT ${v.kind.name} AS kind, ${v.docId.name} AS doc_id, ${v.model.name} AS model, ${v.vector.name} AS vector, ${v.seq.name} AS seq
       FROM semantic_vectors WHERE ${v.workspaceId.name} = ? AND ${v.kind.name} = ? AND ${v.seq.name} > ? ORDER BY ${v.seq.name} LIMIT ?`,
  );
  return {
    nextVectorSeq: async (workspaceId, kind) =>
      Number((await nextSeq.get(workspaceId, kind, workspaceId, kind))?.last_seq),
    vectorsAfter: async (workspaceId, kind, afterSeq, limit) =>
      (await after.all(workspaceId, kind, afterSeq, limit)).map(
        (r): VectorRow => [r.kind, r.doc_id, r.model, r.vector, Number(r.seq)],
      ),
  };
};

export const semanticStatements = dialectStatements<SemanticStatements>({
  sqlite: sqliteSemanticStatements,
  postgres: postgresSemanticStatements,
});
