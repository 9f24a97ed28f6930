import type { Db } from "../db/database";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { AnyJob } from "./define";
import type { JobRow, JobStatements } from "./jobs.statements";

/** A run's lease unless its kind sets `leaseMs`. */
export const DEFAULT_LEASE_MS = 300_000;

export type { JobRow, OrphanRow } from "./jobs.statements";

/** One claimed run: its own abort signal, and whether its outcome may still be written. */
export type Run<D> = {
  row: JobRow;
  definition: AnyJob<D>;
  controller: AbortController;
  settled: boolean;
  promise: Promise<void>;
};

/** One runner's state, shared by its outcome, run and scheduler functions. */
export type RunnerState<D> = {
  db: Db;
  logger: Logger;
  clock: Clock;
  deps: D;
  pollMs: number;
  /** Customer-lane kinds first: a turn claims for them before background kinds (see JobOptions.lane). */
  definitions: Map<string, AnyJob<D>>;
  /** The kinds of `definitions`, for statements that take them. */
  kinds: readonly string[];
  running: Map<string, number>;
  runs: Map<string, Run<D>>;
  statements: JobStatements;
  /** This runner's lease owner id, fresh at each start. */
  owner: string;
  /** DESK_NODE_NAME, else the hostname: a fresh start requeues at once what its node's dead runners left. */
  node: string;
  /** The lease heartbeat's timer while runs exist, and its period. */
  heartbeat: ReturnType<typeof setTimeout> | null;
  heartbeatMs: number;
  /** Clock time (ms) before which a turn does not look for expired leases again. */
  nextReclaimAt: number;
  timer: ReturnType<typeof setTimeout> | null;
  started: boolean;
  stopping: boolean;
  ticking: boolean;
  /** The scheduler turn in flight (its claims and timer), which a stop waits for. */
  turn: Promise<void> | null;
  tickAgain: boolean;
  wakeQueued: boolean;
  /** Kinds a scheduler turn must claim for: a freed slot only concerns its own kind; null means all. */
  kindsToClaim: Set<string> | null;
  /** Asks for a scheduler turn (src/jobs/runner.scheduler.ts); `kind` narrows it to that kind. */
  wake(kind?: string): void;
};

export const isoNow = <D>(state: RunnerState<D>) => state.clock.now().toISOString();
