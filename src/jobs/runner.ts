import type { Db } from "../db/database";
import { commitPending } from "../db/tx";
import type { Clock } from "../lib/clock";
import { newId } from "../lib/ids";
import type { Logger } from "../lib/logger";
import type { AnyJob } from "./define";
import { registerRunnerLink } from "./enqueue";
import { defaultNodeName, liveOwnersOf, reclaimExpired, recoverOwnNode } from "./runner.leases";
import { noteLostLease, scheduleRecurring } from "./runner.outcome";
import { claimDue } from "./runner.run";
import { tick, wake } from "./runner.scheduler";
import { jobStatements } from "./jobs.statements";
import { isoNow, type RunnerState } from "./runner.state";

export type JobRunner = {
  start(): Promise<void>;
  /** Stops claiming; waits up to `graceMs` for running jobs, then hands the rest back to the queue. */
  stop(graceMs?: number): Promise<void>;
  /** Runs every due job now and waits for them (tests and CLI use it). */
  drain(): Promise<number>;
  wake(): void;
  stats(): { running: Record<string, number> };
};

export type RunnerOptions<D> = {
  db: Db;
  logger: Logger;
  clock: Clock;
  /** Handed to every handler as `context.deps`. */
  deps: D;
  definitions: AnyJob<D>[];
  pollMs?: number;
  /** The node this runner's claims name (config.nodeName; default: the hostname). */
  node?: string;
};

/**
 * The in-process durable scheduler. Jobs live in the database; a claim takes a lease (runner, node,
 * fencing token), so a run a crash interrupted runs again: at once when its node starts again, else
 * when its lease runs out (src/jobs/runner.leases.ts). Retries back off exponentially with jitter;
 * each kind runs at most `concurrency` jobs at once; a run past its lease is aborted and retried.
 */
export function createJobRunner<D>(options: RunnerOptions<D>): JobRunner {
  const { db, clock } = options;
  const state: RunnerState<D> = {
    db,
    logger: options.logger,
    clock,
    deps: options.deps,
    pollMs: options.pollMs ?? 30_000,
    definitions: new Map(
      [
        ...options.definitions.filter((d) => d.lane === "customer"),
        ...options.definitions.filter((d) => d.lane !== "customer"),
      ].map((d) => [d.name, d]),
    ),
    kinds: options.definitions.map((d) => d.name),
    running: new Map(),
    runs: new Map(),
    statements: jobStatements(db),
    owner: newId(),
    node: options.node ?? defaultNodeName(),
    heartbeat: null,
    heartbeatMs: 0,
    nextReclaimAt: 0,
    timer: null,
    started: false,
    stopping: false,
    ticking: false,
    turn: null,
    tickAgain: false,
    wakeQueued: false,
    kindsToClaim: new Set(),
    wake: (kind) => wake(state, kind),
  };

  registerRunnerLink(db, { wake: () => wake(state), now: () => clock.now() });
  liveOwnersOf(db).add(state.owner);

  return {
    async start() {
      if (state.started) return;
      state.started = true;
      state.stopping = false;
      renewOwner(state);
      await recoverOwnNode(state);
      for (const definition of state.definitions.values()) await scheduleRecurring(state, definition, true);
      await tick(state);
    },
    stop: (graceMs = 10_000) => stopRunner(state, graceMs),
    async drain() {
      let total = 0;
      liveOwnersOf(db).add(state.owner);
      for (;;) {
        await reclaimExpired(state);
        const { launched } = await claimDue(state);
        const waiting = [...state.runs.values()].map((r) => r.promise);
        if (launched === 0 && waiting.length === 0) return total;
        total += launched;
        await Promise.race([Promise.allSettled(waiting), new Promise((r) => setTimeout(r, 50))]);
      }
    },
    wake: () => wake(state),
    stats: () => ({ running: Object.fromEntries(state.running) }),
  };
}

/** A fresh owner per start; runs still held under the previous one (none after a stop) keep theirs. */
function renewOwner<D>(state: RunnerState<D>): void {
  if (state.runs.size > 0) return;
  const live = liveOwnersOf(state.db);
  live.delete(state.owner);
  state.owner = newId();
  live.add(state.owner);
}

async function stopRunner<D>(state: RunnerState<D>, graceMs: number): Promise<void> {
  state.stopping = true;
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  // A turn still claiming (its statements await the network on PostgreSQL) starts its runs first.
  await state.turn;
  const pending = [...state.runs.values()].map((r) => r.promise);
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    graceTimer = setTimeout(() => resolve("timeout"), graceMs);
  });
  const outcome = await Promise.race([Promise.allSettled(pending).then(() => "done" as const), timeout]);
  clearTimeout(graceTimer);
  if (outcome === "timeout") {
    // Outcomes already reached are committed first; whatever is still running goes back to
    // the queue untouched, and its late result is ignored.
    commitPending(state.db);
    // Every hand-back is written before anything else runs (the statements run as they are called).
    const handedBack = [...state.runs.values()].map((run) => {
      run.settled = true;
      run.controller.abort(new Error("shutting down"));
      return { run, changes: state.statements.handBack(run.row.id, run.row.lease_token, isoNow(state)) };
    });
    state.runs.clear();
    state.running.clear();
    for (const { run, changes } of handedBack) noteLostLease(state, run, await changes, "hand-back");
  }
  if (state.heartbeat) clearTimeout(state.heartbeat);
  state.heartbeat = null;
  // A stopped runner holds no run: a start in this process may take back what carries its name.
  liveOwnersOf(state.db).delete(state.owner);
  state.started = false;
}
