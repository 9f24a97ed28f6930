import { and, asc, eq, gt } from "drizzle-orm";
import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";
import { type SemanticKind, semanticVectors } from "./semantic.table";

/**
 * The in-memory vector index of a workspace: every embedded document of the current model as one
 * row of a contiguous Float32Array, scanned exactly (a bounded brute-force scan: one dot product per
 * document, see bench/semantic-search.ts for its cost at 100,000 documents). It is loaded on the
 * first query and catches up by `seq` before each one, so writes from a job runner in another
 * process are seen too. Memory: documents × dims × 4 bytes (100,000 × 384 ≈ 154 MB), only for
 * workspaces someone searched.
 */
type WorkspaceIndex = {
  model: string;
  dims: number;
  seq: number;
  count: number;
  matrix: Float32Array;
  keys: string[];
  slotOf: Map<string, number>;
};

const indexesOf = deskState("semantic.indexes", () => new Map<string, WorkspaceIndex>());

const keyOf = (kind: SemanticKind, id: string) => `${kind}:${id}`;

/** Little-endian float32 bytes of a unit-length copy of `values`. */
export function packVector(values: number[]): Buffer {
  const norm = Math.hypot(...values) || 1;
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i]! / norm;
  return Buffer.from(out.buffer);
}

const floatsOf = (bytes: Uint8Array) =>
  new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

function put(index: WorkspaceIndex, key: string, vector: Float32Array | null): void {
  const slot = index.slotOf.get(key);
  if (!vector) {
    if (slot === undefined) return;
    const last = index.count - 1;
    if (slot !== last) {
      index.matrix.copyWithin(slot * index.dims, last * index.dims, (last + 1) * index.dims);
      const moved = index.keys[last]!;
      index.keys[slot] = moved;
      index.slotOf.set(moved, slot);
    }
    index.keys.pop();
    index.slotOf.delete(key);
    index.count = last;
    return;
  }
  if (index.dims === 0) index.dims = vector.length;
  if (vector.length !== index.dims) return;
  let at = slot;
  if (at === undefined) {
    at = index.count++;
    if (index.count * index.dims > index.matrix.length) {
      const grown = new Float32Array(Math.max(1024, index.count * 2) * index.dims);
      grown.set(index.matrix.subarray(0, at * index.dims));
      index.matrix = grown;
    }
    index.keys[at] = key;
    index.slotOf.set(key, at);
  }
  index.matrix.set(vector, at * index.dims);
}

/** Brings the workspace's index up to date with the stored vectors of `model` and answers it. */
function current(db: Db, workspaceId: string, model: string): WorkspaceIndex {
  const indexes = indexesOf(db);
  let index = indexes.get(workspaceId);
  if (!index || index.model !== model) {
    index = { model, dims: 0, seq: 0, count: 0, matrix: new Float32Array(0), keys: [], slotOf: new Map() };
    indexes.set(workspaceId, index);
  }
  const newer = db
    .select({
      kind: semanticVectors.kind,
      docId: semanticVectors.docId,
      model: semanticVectors.model,
      vector: semanticVectors.vector,
      seq: semanticVectors.seq,
    })
    .from(semanticVectors)
    .where(and(eq(semanticVectors.workspaceId, workspaceId), gt(semanticVectors.seq, index.seq)))
    .orderBy(asc(semanticVectors.seq))
    .all();
  for (const row of newer) {
    put(index, keyOf(row.kind, row.docId), row.vector && row.model === model ? floatsOf(row.vector) : null);
    index.seq = row.seq;
  }
  return index;
}

export type VectorHit = { kind: SemanticKind; id: string; score: number };

/**
 * The `limit` documents nearest to `query` (cosine similarity, vectors being unit length) at or
 * above `minScore`, best first, optionally of one kind.
 */
export function nearest(
  db: Db,
  workspaceId: string,
  model: string,
  query: number[],
  options: { limit: number; minScore: number; kind?: SemanticKind },
): VectorHit[] {
  const index = current(db, workspaceId, model);
  if (index.count === 0 || query.length !== index.dims) return [];
  const q = floatsOf(packVector(query));
  const dims = index.dims;
  const m = index.matrix;
  const prefix = options.kind ? `${options.kind}:` : null;
  // Top-k kept sorted in two small arrays (k is tens): cheaper than a heap at this size.
  const topScores: number[] = [];
  const topSlots: number[] = [];
  let floor = options.minScore;
  for (let slot = 0, base = 0; slot < index.count; slot++, base += dims) {
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += m[base + d]! * q[d]!;
    if (dot < floor) continue;
    if (prefix && !index.keys[slot]!.startsWith(prefix)) continue;
    let at = topScores.length;
    while (at > 0 && topScores[at - 1]! < dot) at--;
    topScores.splice(at, 0, dot);
    topSlots.splice(at, 0, slot);
    if (topScores.length > options.limit) {
      topScores.pop();
      topSlots.pop();
      floor = topScores[topScores.length - 1]!;
    }
  }
  return topSlots.map((slot, i) => {
    const key = index.keys[slot]!;
    const colon = key.indexOf(":");
    return { kind: key.slice(0, colon) as SemanticKind, id: key.slice(colon + 1), score: topScores[i]! };
  });
}

/** How many documents of the workspace have a vector of `model` (the search answers hybrid when any). */
export const indexedCount = (db: Db, workspaceId: string, model: string): number =>
  current(db, workspaceId, model).count;
