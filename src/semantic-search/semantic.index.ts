import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";
import { semanticStatements } from "./semantic.statements";
import type { SemanticKind } from "./semantic.table";

/**
 * The in-memory vector index of a workspace: every embedded document of the current model as one
 * row of a contiguous Float32Array, plus its sign bits (binary quantization). Up to EXACT_SCAN
 * documents a query is a bounded brute-force scan (one dot product each); beyond, the Hamming
 * distance of the sign bits picks about RESCORE candidates (XOR and a 16-bit popcount table: 12
 * words per document at 384 dims) and only those are scored exactly. bench/semantic-search.ts
 * measures both at 100,000 documents; sqlite-vec's vec0 (a brute-force scan in C over its shadow
 * tables) measured slower here than this scan, see docs/semantic-search.md.
 * The index is loaded on the first query and catches up by `seq` before each one, so writes from a
 * job runner in another process are seen too. Memory: documents × dims × 4.1 bytes (100,000 × 384
 * ≈ 159 MB), only for workspaces someone searched in the last IDLE_EVICT_MS (the sweep job drops the
 * others, a deleted workspace's with them; the next query loads one again).
 */
type WorkspaceIndex = {
  kind: SemanticKind;
  model: string;
  dims: number;
  words: number;
  seq: number;
  count: number;
  matrix: Float32Array;
  bits: Uint32Array;
  keys: string[];
  slotOf: Map<string, number>;
  /** Pages of a long backlog are being read in the background. */
  loading: boolean;
  /** The clock's time (ms) of the last query. */
  usedAt: number;
};

/** An index nobody has searched for this long is dropped from memory. */
export const IDLE_EVICT_MS = 30 * 60_000;

/** Below this many documents every query scans exactly. */
export const EXACT_SCAN = 20_000;
/** Candidates the binary prefilter keeps for exact scoring (at least; ties at the cut are kept too). */
const RESCORE = 1000;

/** Set bits of every 16-bit number (built on the first prefiltered query: nothing at idle). */
let popcount16: Uint8Array | null = null;
function popcountTable(): Uint8Array {
  if (popcount16) return popcount16;
  const table = new Uint8Array(65536);
  for (let i = 1; i < 65536; i++) table[i] = (i & 1) + table[i >> 1]!;
  popcount16 = table;
  return table;
}

function signBits(vector: Float32Array, words: number, out: Uint32Array, at: number): void {
  out.fill(0, at, at + words);
  for (let d = 0; d < vector.length; d++) if (vector[d]! > 0) out[at + (d >> 5)]! |= 1 << (d & 31);
}

const indexesOf = deskState("semantic.indexes", () => new Map<string, WorkspaceIndex>());

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
      index.bits.copyWithin(slot * index.words, last * index.words, (last + 1) * index.words);
      const moved = index.keys[last]!;
      index.keys[slot] = moved;
      index.slotOf.set(moved, slot);
    }
    index.keys.pop();
    index.slotOf.delete(key);
    index.count = last;
    return;
  }
  if (index.dims === 0) {
    index.dims = vector.length;
    index.words = Math.ceil(vector.length / 32);
  }
  if (vector.length !== index.dims) return;
  let at = slot;
  if (at === undefined) {
    at = index.count++;
    if (index.count * index.dims > index.matrix.length) {
      const capacity = Math.max(1024, index.count * 2);
      const grown = new Float32Array(capacity * index.dims);
      grown.set(index.matrix.subarray(0, at * index.dims));
      index.matrix = grown;
      const grownBits = new Uint32Array(capacity * index.words);
      grownBits.set(index.bits.subarray(0, at * index.words));
      index.bits = grownBits;
    }
    index.keys[at] = key;
    index.slotOf.set(key, at);
  }
  index.matrix.set(vector, at * index.dims);
  signBits(vector, index.words, index.bits, at * index.words);
}

/** Rows read per step of loading an index (about 70 ms of the one JS thread at 384 numbers). */
const LOAD_PAGE = 4000;

/**
 * Brings the workspace's index up to date with the stored vectors of `model` and answers it; null
 * while it is still loading. Up to LOAD_PAGE new rows are read at once; a longer backlog (the first
 * query of a large workspace, ~1.8 s at 100,000 documents) is read page by page in the background,
 * yielding between pages, so no request waits for it: semantic search answers full text meanwhile.
 */
async function current(
  db: Db,
  workspaceId: string,
  kind: SemanticKind,
  model: string,
  at: number,
): Promise<WorkspaceIndex | null> {
  const indexes = indexesOf(db);
  const name = `${workspaceId}:${kind}`;
  let index = indexes.get(name);
  if (!index || index.model !== model) {
    index = {
      kind,
      model,
      dims: 0,
      words: 0,
      seq: 0,
      count: 0,
      matrix: new Float32Array(0),
      bits: new Uint32Array(0),
      keys: [],
      slotOf: new Map(),
      loading: false,
      usedAt: at,
    };
    indexes.set(name, index);
  }
  index.usedAt = Math.max(index.usedAt, at);
  if (index.loading) return null;
  if (await readPage(db, workspaceId, index)) return index;
  index.loading = true;
  void loadRest(db, workspaceId, index);
  return null;
}

async function loadRest(db: Db, workspaceId: string, index: WorkspaceIndex): Promise<void> {
  try {
    do await Bun.sleep(0);
    while (!(await readPage(db, workspaceId, index)));
  } catch {
    // The desk stopped (database closed): the index is dropped with it.
  } finally {
    index.loading = false;
  }
}

/** Applies the next LOAD_PAGE stored rows newer than the index; true when nothing newer is left. */
async function readPage(db: Db, workspaceId: string, index: WorkspaceIndex): Promise<boolean> {
  const rows = await semanticStatements(db).vectorsAfter(workspaceId, index.kind, index.seq, LOAD_PAGE);
  for (const [kind, docId, rowModel, vector, seq] of rows) {
    put(index, `${kind}:${docId}`, vector && rowModel === index.model ? floatsOf(vector) : null);
    index.seq = seq;
  }
  return rows.length < LOAD_PAGE;
}

/** Drops the indexes nobody has searched since `now - IDLE_EVICT_MS`; answers how many went. */
export function evictIdleIndexes(db: Db, now: number): number {
  const indexes = indexesOf(db);
  let evicted = 0;
  for (const [name, index] of indexes) {
    if (index.loading || now - index.usedAt < IDLE_EVICT_MS) continue;
    indexes.delete(name);
    evicted++;
  }
  return evicted;
}

export type VectorHit = { kind: SemanticKind; id: string; score: number };

/**
 * The `limit` documents nearest to `query` (cosine similarity, vectors being unit length) at or
 * above `minScore`, best first, among the workspace's documents of one kind (tickets and articles
 * are separate indexes, so a few articles are never crowded out by many tickets); null while the
 * index is loading.
 */
export async function nearest(
  db: Db,
  workspaceId: string,
  model: string,
  query: number[],
  options: { limit: number; minScore: number; kind: SemanticKind; at: number },
): Promise<VectorHit[] | null> {
  const index = await current(db, workspaceId, options.kind, model, options.at);
  if (!index) return null;
  if (index.count === 0 || query.length !== index.dims) return [];
  const q = floatsOf(packVector(query));
  const top = new TopK(options.limit, options.minScore);
  const score = (slot: number) => {
    const base = slot * index.dims;
    let dot = 0;
    for (let d = 0; d < index.dims; d++) dot += index.matrix[base + d]! * q[d]!;
    top.offer(slot, dot);
  };
  if (index.count <= EXACT_SCAN || index.dims < 64) for (let slot = 0; slot < index.count; slot++) score(slot);
  else for (const slot of prefiltered(index, q)) score(slot);
  return top.slots.map((slot, i) => {
    const key = index.keys[slot]!;
    const colon = key.indexOf(":");
    return { kind: key.slice(0, colon) as SemanticKind, id: key.slice(colon + 1), score: top.scores[i]! };
  });
}

/** The slots nearest the query's sign bits (Hamming distance), about RESCORE of them. */
function prefiltered(index: WorkspaceIndex, q: Float32Array): number[] {
  const words = index.words;
  const qBits = new Uint32Array(words);
  signBits(q, words, qBits, 0);
  const distance = new Uint16Array(index.count);
  const histogram = new Uint32Array(index.dims + 1);
  const bits = index.bits;
  const POPCOUNT16 = popcountTable();
  for (let slot = 0, base = 0; slot < index.count; slot++, base += words) {
    let h = 0;
    for (let w = 0; w < words; w++) {
      const x = bits[base + w]! ^ qBits[w]!;
      h += POPCOUNT16[x & 0xffff]! + POPCOUNT16[x >>> 16]!;
    }
    distance[slot] = h;
    histogram[h]!++;
  }
  let cut = 0;
  for (let kept = 0; cut < index.dims && kept + histogram[cut]! < RESCORE; cut++) kept += histogram[cut]!;
  const slots: number[] = [];
  for (let slot = 0; slot < index.count; slot++) if (distance[slot]! <= cut) slots.push(slot);
  return slots;
}

/** The best `limit` (slot, score) pairs at or above a floor, best first (k is tens: sorted arrays beat a heap). */
class TopK {
  scores: number[] = [];
  slots: number[] = [];
  constructor(
    private readonly limit: number,
    private floor: number,
  ) {}
  offer(slot: number, score: number): void {
    if (score < this.floor) return;
    let at = this.scores.length;
    while (at > 0 && this.scores[at - 1]! < score) at--;
    this.scores.splice(at, 0, score);
    this.slots.splice(at, 0, slot);
    if (this.scores.length > this.limit) {
      this.scores.pop();
      this.slots.pop();
      this.floor = this.scores[this.scores.length - 1]!;
    }
  }
}

/** How many documents of the workspace have a vector of `model` (hybrid when any); null while loading. */
export const indexedCount = async (
  db: Db,
  workspaceId: string,
  kind: SemanticKind,
  model: string,
  at: number,
): Promise<number | null> => (await current(db, workspaceId, kind, model, at))?.count ?? null;
