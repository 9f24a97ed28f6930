import { processEngine } from "../config/engine";
import type { Db } from "../db/database";
import { transact } from "../db/tx";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { withEventCause } from "./cause";
import { type Consumer, MAX_CAUSE_DEPTH } from "./consumer.define";
import type { AnyEventDefinition } from "./define";
import { storedEventOf } from "./envelope";
import { type ConsumedEventRow, eventStatements } from "./events.statements";

const typeNames = (events: readonly AnyEventDefinition[]) => events.map((e) => e.type);
const changingTypeNames = <D>(consumer: Consumer<D>) => typeNames(consumer.quiet?.changedBy ?? []);

/**
 * PostgreSQL: nodes sharing the database claim a (consumer, workspace) cursor in each handling's
 * change (`claimCursor`, FOR UPDATE SKIP LOCKED), so one event is handled by one node, in seq order
 * within a workspace, while workspaces go on in parallel; a workspace another node holds is left to
 * it. SQLite (one process) claims nothing.
 */
const CLAIMS = processEngine === "postgres";

/** A failing event is retried after these waits; then it is skipped (logged) so the consumer moves on. */
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000];

/**
 * Each consumer's cached "nothing to do" answers, per workspace. Bounded: past this many workspaces
 * a consumer's answers are dropped and asked again, which costs one `when` call each.
 */
const MAX_QUIET_ENTRIES = 10_000;

/**
 * Workspaces a consumer keeps as "may have new events" (fed by commits). Bounded: past this many it
 * forgets them and asks the table instead, a page at a time.
 */
const MAX_PENDING_WORKSPACES = 10_000;
/** Workspaces read per step from the table comparison (start, drain, poll). */
const SCAN_PAGE = 500;

type Failure = { seq: number; count: number; retryAt: number };

/** What one runner's consumers share across their steps: what each reads, its failures and its tally. */
export type StepState<D> = {
  db: Db;
  logger: Logger;
  clock: Clock;
  deps: D;
  batch: number;
  consumerNames: string[];
  /** Per consumer, the types its scan reads (handled ones and those changing its quiet answer). */
  typesOf: Map<string, readonly string[]>;
  handledTypes: Map<string, Set<string>>;
  changingTypes: Map<string, Set<string>>;
  quietCache: Map<string, Map<string, boolean>>;
  /** Per consumer: events handled, passed over as quiet, and the time spent (the System page and /metrics). */
  tallies: Map<string, { handled: number; skipped: number; ms: number }>;
  /** Per consumer and workspace: failures of the event at its cursor, and when it may try again. */
  failures: Map<string, Map<string, Failure>>;
  /** Per consumer: workspaces that may have events past its cursor (a hint; the table is the truth). */
  pending: Map<string, Set<string>>;
  /** Per consumer: where its table comparison resumes (after this workspace id), or null when none runs. */
  scanFrom: Map<string, string | null>;
  /** Each workspace's counter as last seen (a poll or a commit here), so a poll tells what changed elsewhere. */
  counters: Map<string, number>;
};

export function createStepState<D>(
  options: { db: Db; logger: Logger; clock: Clock; deps: D; consumers: Consumer<D>[]; batch: number },
  quietCache: Map<string, Map<string, boolean>>,
): StepState<D> {
  const { consumers } = options;
  return {
    ...options,
    consumerNames: consumers.map((c) => c.name),
    // A consumer also reads the types that change its quiet answer, to forget that answer in order.
    typesOf: new Map(consumers.map((c) => [c.name, [...new Set([...typeNames(c.events), ...changingTypeNames(c)])]])),
    handledTypes: new Map(consumers.map((c) => [c.name, new Set(typeNames(c.events))])),
    changingTypes: new Map(consumers.map((c) => [c.name, new Set(changingTypeNames(c))])),
    quietCache,
    tallies: new Map(consumers.map((c) => [c.name, { handled: 0, skipped: 0, ms: 0 }])),
    failures: new Map(consumers.map((c) => [c.name, new Map()])),
    pending: new Map(consumers.map((c) => [c.name, new Set()])),
    scanFrom: new Map(consumers.map((c) => [c.name, ""])),
    counters: new Map(),
  };
}

/** Notes the workspaces of events committed here, for every consumer to look at next. */
export function noteCommitted<D>(state: StepState<D>, events: readonly { workspace_id: string; seq: number }[]): void {
  for (const event of events)
    if ((state.counters.get(event.workspace_id) ?? 0) < event.seq) state.counters.set(event.workspace_id, event.seq);
  markPending(
    state,
    events.map((e) => e.workspace_id),
  );
}

/**
 * The poll: one read of the counters (a narrow table, one row per workspace) against what was last
 * seen; workspaces whose counter moved without a commit here (another process) become pending.
 * With `baseline`, only records them (a start, whose table comparison finds the work itself).
 */
export async function pollCounters<D>(state: StepState<D>, baseline = false): Promise<void> {
  const seen = new Map<string, number>();
  const changed: string[] = [];
  for (const row of await eventStatements(state.db).counters()) {
    if (state.counters.get(row.workspace_id) !== row.last_seq) changed.push(row.workspace_id);
    seen.set(row.workspace_id, row.last_seq);
  }
  state.counters = seen;
  if (!baseline && changed.length > 0) markPending(state, changed);
}

function markPending<D>(state: StepState<D>, workspaceIds: readonly string[]): void {
  for (const name of state.consumerNames) {
    const pending = state.pending.get(name)!;
    for (const workspaceId of workspaceIds) pending.add(workspaceId);
    if (pending.size > MAX_PENDING_WORKSPACES) {
      pending.clear();
      state.scanFrom.set(name, "");
    }
  }
}

/**
 * A running consumer's lag from its pending workspaces alone (every other one is caught up as far
 * as commits here and the last poll tell), so a scrape costs what is pending, not every workspace.
 * Null while its table comparison has not finished (just started): then only the table knows.
 */
export async function pendingLag<D>(
  state: StepState<D>,
  name: string,
): Promise<{ behind: number; oldest: string | null } | null> {
  const pending = state.pending.get(name);
  if (!pending || state.scanFrom.get(name) !== null) return null;
  const statements = eventStatements(state.db);
  let behind = 0;
  let oldest: string | null = null;
  for (const workspaceId of pending) {
    const position = await statements.cursorPosition(name, workspaceId);
    if (!position || position.cursor >= position.last_seq) continue;
    behind += position.last_seq - position.cursor;
    const first = await statements.firstOccurredAfter(workspaceId, position.cursor);
    if (first && (!oldest || first < oldest)) oldest = first;
  }
  return { behind, oldest };
}

/**
 * Makes every consumer compare the counters with its cursors again (from the first workspace), the
 * truth behind the hints: what a restart left (at start) and what a drain must not miss.
 */
export function scanAllWorkspaces<D>(state: StepState<D>): void {
  for (const name of state.consumerNames) state.scanFrom.set(name, "");
}

/** Whether the consumer may pass over this workspace's events (see Consumer.quiet). */
async function isQuiet<D>(state: StepState<D>, consumer: Consumer<D>, workspaceId: string): Promise<boolean> {
  if (!consumer.quiet) return false;
  let answers = state.quietCache.get(consumer.name);
  if (!answers) {
    answers = new Map();
    state.quietCache.set(consumer.name, answers);
  }
  let quiet = answers.get(workspaceId);
  if (quiet === undefined) {
    quiet = await consumer.quiet.when(state.deps, workspaceId);
    if (answers.size >= MAX_QUIET_ENTRIES) answers.clear();
    answers.set(workspaceId, quiet);
  }
  return quiet;
}

/**
 * Handles one event in a transaction with the cursor's advance. "failed": it will be retried later
 * (its workspace waits; others go on); "moved": the cursor moved past it without handling (too
 * deep, or given up on); "noop": handled, but the handler wrote nothing, so the cursor moves past it
 * with the batch's one advance like a passed-over event (after a crash it is handled again, which
 * writes nothing again): most handled events of a workspace without rules are such.
 */
async function handleRow<D>(
  state: StepState<D>,
  consumer: Consumer<D>,
  row: ConsumedEventRow,
): Promise<"handled" | "noop" | "moved" | "failed" | "held" | "passed"> {
  const { db, logger, clock, deps } = state;
  const statements = eventStatements(db);
  const failures = state.failures.get(consumer.name)!;
  const at = clock.now().toISOString();
  const advance = async () => await statements.advanceCursor(consumer.name, row.workspace_id, row.seq, at);
  if (row.cause_depth >= MAX_CAUSE_DEPTH) {
    logger.warn(
      { consumer: consumer.name, event_id: row.id, type: row.type, depth: row.cause_depth },
      "event not handled: too deep in a chain of consumer reactions",
    );
    await transact(db, advance);
    return "moved";
  }
  const failure = failures.get(row.workspace_id);
  try {
    const outcome = await transact(db, async (tx) => {
      if (CLAIMS) {
        // Several nodes: the cursor row is this change's, or another node is at this workspace.
        const cursor = await statements.claimCursor(consumer.name, row.workspace_id, at);
        if (cursor === null) return "held";
        if (cursor >= row.seq) return "passed";
      }
      const before = CLAIMS ? 0 : await statements.changeCount();
      const context = { deps, causedBy: row.cause_consumer, depth: row.cause_depth };
      await withEventCause(
        tx,
        { consumer: consumer.name, depth: row.cause_depth + 1 },
        async () => await consumer.handle(tx, storedEventOf(row), context),
      );
      // With claims the cursor always moves with the handling: another node must not handle it again.
      if (!CLAIMS && (await statements.changeCount()) === before) return "noop";
      await advance();
      return "handled";
    });
    failures.delete(row.workspace_id);
    return outcome;
  } catch (error) {
    const count = failure?.seq === row.seq ? failure.count + 1 : 1;
    const log = { err: error, consumer: consumer.name, event_id: row.id, type: row.type, attempt: count };
    if (count > RETRY_DELAYS_MS.length) {
      // Retrying has not helped: one bad event must not stop the consumer for good.
      logger.error(log, "consumer skipped an event it failed to handle");
      await transact(db, advance);
      failures.delete(row.workspace_id);
      return "moved";
    }
    logger.warn(log, "consumer failed to handle an event; will retry");
    failures.set(row.workspace_id, {
      seq: row.seq,
      count,
      retryAt: clock.now().getTime() + RETRY_DELAYS_MS[count - 1]!,
    });
    return "failed";
  }
}

/** "held": another node is at the workspace (PostgreSQL); it stays pending here, looked at again on the next wake. */
type WorkspaceStep = { read: number; handled: number; skipped: number; outcome: "done" | "more" | "failed" | "held" };

/**
 * Handles up to `budget` events of one workspace past the consumer's cursor, in seq order. Every
 * seq up to the counter read here is committed (the counter row is held until its event commits),
 * so a scan that finds fewer than `budget` may move the cursor to that counter in one write,
 * passing over the events it does not handle.
 */
async function stepWorkspace<D>(
  state: StepState<D>,
  consumer: Consumer<D>,
  workspaceId: string,
  budget: number,
): Promise<WorkspaceStep> {
  const statements = eventStatements(state.db);
  const none: WorkspaceStep = { read: 0, handled: 0, skipped: 0, outcome: "done" };
  const position = await statements.cursorPosition(consumer.name, workspaceId);
  if (!position || position.cursor >= position.last_seq) return none;
  const rows = await statements.eventsAfter(
    workspaceId,
    position.cursor,
    position.last_seq,
    state.typesOf.get(consumer.name) ?? [],
    budget,
  );
  const handles = state.handledTypes.get(consumer.name)!;
  const changing = state.changingTypes.get(consumer.name)!;
  const step: WorkspaceStep = { ...none, read: rows.length };
  let written = position.cursor;
  for (const row of rows) {
    if (changing.has(row.type)) state.quietCache.get(consumer.name)?.delete(workspaceId);
    // Passed over events need no transaction: the cursor moves past them with the next handled
    // event or at the end of the batch, and re-reading them after a crash does nothing either.
    if (!handles.has(row.type) || (await isQuiet(state, consumer, workspaceId))) {
      step.skipped++;
      continue;
    }
    const outcome = await handleRow(state, consumer, row);
    if (outcome === "failed") return { ...step, outcome: "failed" };
    // Another node is handling this workspace (PostgreSQL): it goes on from here, its cursor untouched.
    if (outcome === "held") return { ...step, outcome: "held" };
    if (outcome === "passed") continue;
    if (outcome === "handled" || outcome === "noop") step.handled++;
    if (outcome !== "noop") written = row.seq;
  }
  const end = rows.length < budget ? position.last_seq : rows.at(-1)!.seq;
  if (end > written)
    await transact(
      state.db,
      async () => await statements.advanceCursor(consumer.name, workspaceId, end, state.clock.now().toISOString()),
    );
  return { ...step, outcome: end < position.last_seq ? "more" : "done" };
}

/** Adds a page of the table comparison to the consumer's pending workspaces; whether pages remain. */
async function scanPage<D>(state: StepState<D>, consumer: Consumer<D>, pending: Set<string>): Promise<boolean> {
  const from = state.scanFrom.get(consumer.name);
  if (from === null || from === undefined) return false;
  const page = await eventStatements(state.db).workspacesBehind(consumer.name, from, SCAN_PAGE);
  for (const workspaceId of page) pending.add(workspaceId);
  const more = page.length === SCAN_PAGE;
  state.scanFrom.set(consumer.name, more ? page.at(-1)! : null);
  return more;
}

/**
 * Handles up to `batch` events of one consumer across the workspaces that may have some; returns
 * how many it handled and whether more wait. A workspace whose event keeps failing waits for its
 * retry while the others go on.
 */
export async function stepConsumer<D>(
  state: StepState<D>,
  consumer: Consumer<D>,
): Promise<{ handled: number; more: boolean }> {
  const pending = state.pending.get(consumer.name)!;
  const failures = state.failures.get(consumer.name)!;
  const tally = state.tallies.get(consumer.name)!;
  const started = performance.now();
  let more = await scanPage(state, consumer, pending);
  const now = state.clock.now().getTime();
  const again: string[] = [];
  let budget = state.batch;
  let handled = 0;
  for (const workspaceId of pending) {
    if (budget <= 0) {
      more = true;
      break;
    }
    if ((failures.get(workspaceId)?.retryAt ?? 0) > now) continue;
    // Taken out before it is read, so a commit meanwhile puts it back.
    pending.delete(workspaceId);
    const step = await stepWorkspace(state, consumer, workspaceId, budget);
    budget -= step.read;
    handled += step.handled;
    tally.skipped += step.skipped;
    if (step.outcome !== "done") again.push(workspaceId);
    if (step.outcome === "more") more = true;
  }
  for (const workspaceId of again) pending.add(workspaceId);
  tally.handled += handled;
  tally.ms += performance.now() - started;
  return { handled, more };
}
