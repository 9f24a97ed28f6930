/**
 * The state one desk shares, in types generic over the database and transaction handles (`D`, `T`):
 * src/db/database.ts (and database.pg.ts) name them with their engine's handles, so this file
 * imports none.
 */
export type Frame<D, T> = {
  db: D;
  tx: T;
  afterCommit: Array<() => void>;
  /** Open: its body runs (or awaits the store); false once it ended or the watchdog rolled it back. */
  pending: boolean;
};
export type Batch = {
  /** A batch opened by shareTurn reads only; the first change of its turn starts a write batch instead. */
  mode: "read" | "write";
  savepoints: number;
  /** Requests that joined through `shareTurn`. */
  sharers: number;
  /** SQLite's total_changes() when the batch began: writes outside transact count as pending too. */
  changesAtOpen: number;
  afterCommit: Array<() => void>;
  committed: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
};

/**
 * The transaction state of one database (src/db/tx.ts), reached from the database and every
 * transaction handle. Declared beside `Db` because each holds the other.
 */
export type TxRuntime<D, T> = {
  /** The open batch (the turn's SQLite transaction), if any. */
  batch: Batch | null;
  /** The change open now, if any (a nested transact joins it): at most one at a time. */
  frames: Frame<D, T>[];
  /** A change holds the connection (its body runs or awaits the store). */
  locked: boolean;
  /** Bodies waiting for the open change to end, first come first served. */
  waiting: Array<() => void>;
  /** Work joining each batch that wrote something, just before its COMMIT. */
  beforeCommit: Array<() => void>;
};

/** Where a desk's runtime keeps the state declared with `deskState` (src/db/desk-state.ts), one symbol each. */
type DeskStates = { [slot: symbol]: unknown };

/**
 * The state one desk shares, built once at start (`createRuntime`, src/db/runtime.ts), given to
 * `openDatabase` and reached as `db.$runtime` from the database and every transaction handle: no
 * module-level registry keyed by database, so desks in one process never share any of it. Besides
 * the transaction state, it holds only `deskState` slots: the event hooks, the runner link, the
 * access listeners and the features' own state are each declared by their owner.
 */
export type DeskRuntime<D, T> = TxRuntime<D, T> & { states: DeskStates };

/**
 * A fresh runtime for one desk: built once at start and given to `openDatabase`, which carries it
 * as `db.$runtime`. Each desk, CLI command and test database gets its own.
 */
export const createRuntime = <D, T>(): DeskRuntime<D, T> => ({
  batch: null,
  frames: [],
  beforeCommit: [],
  locked: false,
  waiting: [],
  states: {},
});

/** Whether `db` is a read pool connection (a transaction handle never is). */
export const isReader = (db: object): boolean => "$reader" in db && db.$reader === true;
