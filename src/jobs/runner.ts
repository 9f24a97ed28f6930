import type { Db } from "../db/database";
import { commitPending } from "../db/tx";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { AnyJob } from "./define";
import { registerRunnerLink } from "./enqueue";
import { recoverInterrupted, scheduleRecurring } from "./runner.outcome";
import { claimDue } from "./runner.run";
import { tick, wake } from "./runner.scheduler";
import { isoNow, runnerStatements, type RunnerState } from "./runner.state";

export type JobRunner = {
  start(): void;
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
};

/**
 * The in-process durable scheduler. Jobs live in SQLite; a claim sets a lease, so a run that a
 * crash interrupted is picked up again after restart. Retries back off exponentially with jitter;
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
    running: new Map(),
    runs: new Map(),
    statements: runnerStatements(db.$client),
    timer: null,
    started: false,
    stopping: false,
    ticking: false,
    tickAgain: false,
    wakeQueued: false,
    kindsToClaim: new Set(),
    wake: (kind) => wake(state, kind),
  };

  registerRunnerLink(db, { wake: () => wake(state), now: () => clock.now() });

  return {
    start() {
      if (state.started) return;
      state.started = true;
      state.stopping = false;
      recoverInterrupted(state);
      for (const definition of state.definitions.values()) scheduleRecurring(state, definition);
      tick(state);
    },
    stop: (graceMs = 10_000) => stopRunner(state, graceMs),
    async drain() {
      let total = 0;
      for (;;) {
        const { launched } = claimDue(state);
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

async function stopRunner<D>(state: RunnerState<D>, graceMs: number): Promise<void> {
  state.stopping = true;
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
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
    for (const run of state.runs.values()) {
      run.settled = true;
      run.controller.abort(new Error("shutting down"));
      state.statements.handBack.run(isoNow(state), run.row.id);
    }
    state.runs.clear();
    state.running.clear();
  }
  state.started = false;
}
