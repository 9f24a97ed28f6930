import { hostname } from "node:os";
import { deskState } from "../db/desk-state";
import { maxAttemptsOf } from "./runner.outcome";
import { DEFAULT_LEASE_MS, isoNow, type OrphanRow, type Run, type RunnerState } from "./runner.state";

/**
 * Leases across runners and nodes. A claim records its runner (`lease_owner`, fresh per start), the
 * runner's node and a fencing token; runs renew their lease while they work (the heartbeat), and any
 * runner's scheduler turn takes back runs whose lease ran out: their runner died or hangs, on this
 * node or another. A fresh start does not wait for that: a node's runs whose runner is no longer in
 * its process were cut off by a crash, and go back to the queue at once.
 */

/** Expired runs taken back per scheduler turn; the rest wait for the next turns. */
const RECLAIM_PER_TURN = 32;
/**
 * Turns look for expired leases at most this often (clock time): a lease only ends as time passes,
 * and a turn per finished run would otherwise pay a query each for nothing.
 */
const RECLAIM_EVERY_MS = 1_000;
/** Orphans read per round at start, and the rounds: a start never loops on rows it cannot release. */
const ORPHANS_PER_ROUND = 500;
const ORPHAN_ROUNDS = 100;

/**
 * The node's name when none is given (config.nodeName: DESK_NODE_NAME, else the hostname). It must be
 * unique among the processes sharing a database: a start treats every run of its node name that no
 * runner of its own process holds as left by a crash.
 */
export const defaultNodeName = (): string => hostname();

/** Owners of the runners alive in this process (the desk's runtime), whose runs a start leaves alone. */
export const liveOwnersOf = deskState("jobs.live-owners", () => new Set<string>());

export const leaseMsOf = <D>(run: Pick<Run<D>, "definition">): number => run.definition.leaseMs ?? DEFAULT_LEASE_MS;

const nextState = <D>(state: RunnerState<D>, row: OrphanRow): "queued" | "failed" =>
  row.attempts >= maxAttemptsOf(row, state.definitions.get(row.kind)) ? "failed" : "queued";

const errorFor = (next: "queued" | "failed", why: string) =>
  next === "failed" ? "interrupted on its last attempt" : why;

/**
 * At start: runs this node's dead runners left go back to the queue (or fail, when that was their
 * last attempt: a job that kills the process every time must not loop forever).
 */
export async function recoverOwnNode<D>(state: RunnerState<D>): Promise<void> {
  const { statements } = state;
  const live = [...liveOwnersOf(state.db)];
  for (let round = 0; round < ORPHAN_ROUNDS; round++) {
    const rows = await statements.leftByNode(state.node, live, ORPHANS_PER_ROUND);
    for (const row of rows) {
      const next = nextState(state, row);
      await statements.releaseOrphan(
        row.id,
        row.token,
        next,
        errorFor(next, "interrupted by a restart"),
        isoNow(state),
      );
    }
    if (rows.length < ORPHANS_PER_ROUND) return;
  }
}

/** One scheduler turn's share: runs of known kinds whose lease ran out, whoever held them. Answers how many it released. */
export async function reclaimExpired<D>(state: RunnerState<D>): Promise<number> {
  const { statements } = state;
  const at = state.clock.now().getTime();
  if (at < state.nextReclaimAt) return 0;
  state.nextReclaimAt = at + RECLAIM_EVERY_MS;
  const now = new Date(at).toISOString();
  let released = 0;
  for (const row of await statements.expiredLeases(now, state.kinds, RECLAIM_PER_TURN + state.runs.size)) {
    // A run of this runner still working is not lost: its own lease timer ends it (a test's
    // manual clock may pass its lease between heartbeats).
    if (isOwnLiveRun(state, row)) continue;
    const next = nextState(state, row);
    const error = errorFor(next, "its runner stopped renewing the lease");
    released += await statements.releaseExpired(row.id, row.token, next, error, now);
  }
  if (released > 0) state.logger.warn({ released, node: state.node }, "took back jobs whose lease expired");
  return released;
}

const isOwnLiveRun = <D>(state: RunnerState<D>, row: OrphanRow): boolean => {
  const run = state.runs.get(row.id);
  return run !== undefined && !run.settled && run.row.lease_token === row.token;
};

/** Renews every run's lease in one statement; answers the runs that lost theirs (taken over). */
export async function renewLeases<D>(state: RunnerState<D>): Promise<Run<D>[]> {
  const runs = [...state.runs.values()].filter((run) => !run.settled);
  if (runs.length === 0) return [];
  const now = state.clock.now().getTime();
  const renewals = runs.map((run) => ({
    id: run.row.id,
    token: run.row.lease_token,
    leaseUntil: new Date(now + leaseMsOf(run)).toISOString(),
  }));
  const kept = new Set(await state.statements.renewLeases(renewals));
  return runs.filter((run) => !kept.has(run.row.id));
}
