import type { Db } from "../db/database";
import { preparedFor } from "../db/prepared";
import { withTx } from "../db/tx";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { withEventCause } from "./cause";
import { type Consumer, IMPORT_CAUSE, MAX_CAUSE_DEPTH } from "./consumer.define";
import type { AnyEventDefinition } from "./define";
import { type StoredEventRow, storedEventOf } from "./envelope";

type EventRow = StoredEventRow & { rowid: number; cause_consumer: string | null; cause_depth: number };

export const statementsOf = preparedFor((sqlite) => ({
  cursor: sqlite.query<{ last_rowid: number }, [string]>("SELECT last_rowid FROM event_consumers WHERE name = ?"),
  newest: sqlite.query<{ rowid: number | null }, []>("SELECT max(rowid) AS rowid FROM events"),
  create: sqlite.query<unknown, [string, number, string]>(
    "INSERT OR IGNORE INTO event_consumers (name, last_rowid, updated_at) VALUES (?, ?, ?)",
  ),
  advance: sqlite.query<unknown, [number, string, string]>(
    "UPDATE event_consumers SET last_rowid = ?, updated_at = ? WHERE name = ?",
  ),
  after: sqlite.query<EventRow, [number, number, string, number]>(
    `SELECT rowid, id, seq, workspace_id, type, visibility, private_team_id, topics, data, occurred_at, cause_consumer, cause_depth
     FROM events WHERE rowid > ? AND rowid <= ? AND type IN (SELECT value FROM json_each(?))
       AND (cause_consumer IS NULL OR cause_consumer != '${IMPORT_CAUSE}') ORDER BY rowid LIMIT ?`,
  ),
}));

const typeNames = (events: readonly AnyEventDefinition[]) => events.map((e) => e.type);
const changingTypeNames = <D>(consumer: Consumer<D>) => typeNames(consumer.quiet?.changedBy ?? []);

/** A failing event is retried after these waits; then it is skipped (logged) so the consumer moves on. */
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000];

/**
 * Each consumer's cached "nothing to do" answers, per workspace. Bounded: past this many workspaces
 * a consumer's answers are dropped and asked again, which costs one `when` call each.
 */
const MAX_QUIET_ENTRIES = 10_000;

/** What one runner's consumers share across their steps: what each reads, its failures and its tally. */
export type StepState<D> = {
  db: Db;
  logger: Logger;
  clock: Clock;
  deps: D;
  batch: number;
  /** Per consumer, the JSON list of types its scan reads (handled ones and those changing its quiet answer). */
  typesOf: Map<string, string>;
  handledTypes: Map<string, Set<string>>;
  changingTypes: Map<string, Set<string>>;
  quietCache: Map<string, Map<string, boolean>>;
  /** Per consumer: events handled, passed over as quiet, and the time spent (the System page and /metrics). */
  tallies: Map<string, { handled: number; skipped: number; ms: number }>;
  /** Per consumer: failures of the event at its cursor, and when it may try again. */
  failures: Map<string, { rowid: number; count: number; retryAt: number }>;
};

export function createStepState<D>(
  options: { db: Db; logger: Logger; clock: Clock; deps: D; consumers: Consumer<D>[]; batch: number },
  quietCache: Map<string, Map<string, boolean>>,
): StepState<D> {
  const { consumers } = options;
  return {
    ...options,
    // A consumer also reads the types that change its quiet answer, to forget that answer in order.
    typesOf: new Map(
      consumers.map((c) => [c.name, JSON.stringify([...new Set([...typeNames(c.events), ...changingTypeNames(c)])])]),
    ),
    handledTypes: new Map(consumers.map((c) => [c.name, new Set(typeNames(c.events))])),
    changingTypes: new Map(consumers.map((c) => [c.name, new Set(changingTypeNames(c))])),
    quietCache,
    tallies: new Map(consumers.map((c) => [c.name, { handled: 0, skipped: 0, ms: 0 }])),
    failures: new Map(),
  };
}

/** Whether the consumer may pass over this workspace's events (see Consumer.quiet). */
function isQuiet<D>(state: StepState<D>, consumer: Consumer<D>, workspaceId: string): boolean {
  if (!consumer.quiet) return false;
  let answers = state.quietCache.get(consumer.name);
  if (!answers) {
    answers = new Map();
    state.quietCache.set(consumer.name, answers);
  }
  let quiet = answers.get(workspaceId);
  if (quiet === undefined) {
    quiet = consumer.quiet.when(state.deps, workspaceId);
    if (answers.size >= MAX_QUIET_ENTRIES) answers.clear();
    answers.set(workspaceId, quiet);
  }
  return quiet;
}

/**
 * Handles one event in a transaction with the cursor's advance. "failed": it will be retried later
 * (the step ends); "moved": the cursor moved past it without handling (too deep, or given up on).
 */
function handleRow<D>(state: StepState<D>, consumer: Consumer<D>, row: EventRow): "handled" | "moved" | "failed" {
  const { db, logger, clock, deps, failures } = state;
  const statements = statementsOf(db);
  const at = clock.now().toISOString();
  if (row.cause_depth >= MAX_CAUSE_DEPTH) {
    logger.warn(
      { consumer: consumer.name, event_id: row.id, type: row.type, depth: row.cause_depth },
      "event not handled: too deep in a chain of consumer reactions",
    );
    withTx(db, () => statements.advance.run(row.rowid, at, consumer.name));
    return "moved";
  }
  const failure = failures.get(consumer.name);
  try {
    withTx(db, (tx) => {
      const context = { deps, causedBy: row.cause_consumer, depth: row.cause_depth };
      withEventCause({ consumer: consumer.name, depth: row.cause_depth + 1 }, () =>
        consumer.handle(tx, storedEventOf(row), context),
      );
      statements.advance.run(row.rowid, at, consumer.name);
    });
    failures.delete(consumer.name);
    return "handled";
  } catch (error) {
    const count = failure?.rowid === row.rowid ? failure.count + 1 : 1;
    const log = { err: error, consumer: consumer.name, event_id: row.id, type: row.type, attempt: count };
    if (count > RETRY_DELAYS_MS.length) {
      // Retrying has not helped: one bad event must not stop the consumer for good.
      logger.error(log, "consumer skipped an event it failed to handle");
      withTx(db, () => statements.advance.run(row.rowid, at, consumer.name));
      failures.delete(consumer.name);
      return "moved";
    }
    logger.warn(log, "consumer failed to handle an event; will retry");
    failures.set(consumer.name, {
      rowid: row.rowid,
      count,
      retryAt: clock.now().getTime() + RETRY_DELAYS_MS[count - 1]!,
    });
    return "failed";
  }
}

/** Handles up to `batch` events of one consumer; returns how many it handled and whether more wait. */
export function stepConsumer<D>(state: StepState<D>, consumer: Consumer<D>): { handled: number; more: boolean } {
  const { db, clock, batch } = state;
  const statements = statementsOf(db);
  const failure = state.failures.get(consumer.name);
  if (failure && failure.retryAt > clock.now().getTime()) return { handled: 0, more: false };
  const from = statements.cursor.get(consumer.name)?.last_rowid ?? 0;
  // Everything up to the newest stored event is committed (transactions are synchronous in this
  // process), so a scan that finds fewer than `batch` matches may move the cursor to it: the next
  // scan starts there instead of re-reading every unrelated event since the last match.
  const upTo = statements.newest.get()?.rowid ?? 0;
  const rows = statements.after.all(from, upTo, state.typesOf.get(consumer.name) ?? "[]", batch);
  const handles = state.handledTypes.get(consumer.name)!;
  const changing = state.changingTypes.get(consumer.name)!;
  const tally = state.tallies.get(consumer.name)!;
  const started = performance.now();
  let handled = 0;
  let skipped = 0;
  for (const row of rows) {
    if (changing.has(row.type)) state.quietCache.get(consumer.name)?.delete(row.workspace_id);
    // Passed over events need no transaction: the cursor moves past them with the next handled
    // event or at the end of the batch, and re-reading them after a crash does nothing either.
    if (!handles.has(row.type) || isQuiet(state, consumer, row.workspace_id)) {
      skipped++;
      continue;
    }
    const outcome = handleRow(state, consumer, row);
    if (outcome === "handled") handled++;
    if (outcome === "failed") {
      tally.ms += performance.now() - started;
      return { handled, more: false };
    }
  }
  // One advance for the batch: to the newest event when the scan found them all, else past the
  // last row read (events passed over since the last handled one included).
  const end = rows.length < batch ? upTo : rows.at(-1)!.rowid;
  if (end > from && (skipped > 0 || end > (rows.at(-1)?.rowid ?? from)))
    withTx(db, () => statements.advance.run(end, clock.now().toISOString(), consumer.name));
  tally.handled += handled;
  tally.skipped += skipped;
  tally.ms += performance.now() - started;
  return { handled, more: rows.length === batch };
}
