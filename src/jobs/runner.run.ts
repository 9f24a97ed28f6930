import { untilDurable, transact } from "../db/tx";
import { newId } from "../lib/ids";
import type { Logger } from "../lib/logger";
import { PermanentFailure, type AnyJob, type JobContext } from "./define";
import { leaseMsOf, renewLeases } from "./runner.leases";
import { scheduleRecurring, settle, writeNow } from "./runner.outcome";
import type { Run, RunnerState } from "./runner.state";

const DEFAULT_CONCURRENCY = 4;

export const freeSlots = <D>(state: RunnerState<D>, definition: AnyJob<D>) =>
  (definition.concurrency ?? DEFAULT_CONCURRENCY) - (state.running.get(definition.name) ?? 0);

/**
 * Claims what is due, up to each kind's concurrency, and starts it. `only` limits the claim to
 * kinds that may have new work; `budget` caps the runs started, and kinds cut short are returned
 * in `unfinished` for the next turn.
 */
export async function claimDue<D>(
  state: RunnerState<D>,
  only: Set<string> | null = null,
  budget = Infinity,
): Promise<{ launched: number; unfinished: string[] }> {
  const now = state.clock.now();
  // One token per claim statement: it only has to differ from every earlier claim of each row.
  const token = newId();
  let launched = 0;
  // Each lane spends its own budget: background starts never use up the customer lane's.
  const spent = { customer: 0, background: 0 };
  const unfinished: string[] = [];
  for (const definition of state.definitions.values()) {
    if (only && !only.has(definition.name)) continue;
    const free = freeSlots(state, definition);
    if (free <= 0) continue;
    const lane = definition.lane === "customer" ? "customer" : "background";
    const allowed = Math.min(free, budget - spent[lane]);
    if (allowed <= 0) {
      unfinished.push(definition.name);
      continue;
    }
    const lease = new Date(now.getTime() + leaseMsOf({ definition })).toISOString();
    const at = now.toISOString();
    const rows = await state.statements.claimDue({
      kind: definition.name,
      limit: allowed,
      now: at,
      leaseUntil: lease,
      owner: state.owner,
      node: state.node,
      token,
    });
    if (rows.length === allowed && allowed < free) unfinished.push(definition.name);
    for (const row of rows) {
      state.running.set(row.kind, (state.running.get(row.kind) ?? 0) + 1);
      const run: Run<D> = {
        row,
        definition,
        controller: new AbortController(),
        settled: false,
        promise: Promise.resolve(),
      };
      state.runs.set(row.id, run);
      run.promise = execute(state, run);
      launched++;
      spent[lane]++;
    }
  }
  if (launched > 0) armHeartbeat(state);
  return { launched, unfinished };
}

async function execute<D>(state: RunnerState<D>, run: Run<D>): Promise<void> {
  const { db, logger } = state;
  const { row } = run;
  const leaseMs = leaseMsOf(run);
  const leaseTimer = setTimeout(async () => {
    // The run overstayed its lease: count it as a failed attempt and free its slot.
    run.controller.abort(new Error("lease expired"));
    // Written before the slot is freed (on PostgreSQL the write awaits the network).
    await settle(state, run, { ok: false, error: new Error(`run exceeded its ${leaseMs} ms lease`) }, writeNow).catch(
      (writeError: unknown) => logger.error({ err: writeError, job_id: row.id }, "could not record a job outcome"),
    );
    await release(state, run);
  }, leaseMs);
  try {
    // The claim (its attempt count) must be stored before the handler acts: a run that kills the
    // process is then counted, and an uncommitted claim is never worked on.
    await untilDurable(db);
  } catch (error) {
    logger.error({ err: error, job_id: row.id }, "could not store a job's claim; it stays queued");
    clearTimeout(leaseTimer);
    await release(state, run);
    return;
  }
  const outcome = await perform(state, run);
  try {
    await settle(state, run, outcome);
  } catch (writeError) {
    logger.error({ err: writeError, job_id: row.id }, "could not record a job outcome");
  } finally {
    clearTimeout(leaseTimer);
    await release(state, run);
  }
}

/** Runs the handler on the stored payload; what it throws is the outcome. */
async function perform<D>(state: RunnerState<D>, run: Run<D>): Promise<{ ok: true } | { ok: false; error: unknown }> {
  const { row, definition } = run;
  try {
    let payload: unknown;
    try {
      payload = JSON.parse(row.payload);
    } catch (error) {
      // A payload that does not parse will not parse on a retry either.
      throw new PermanentFailure(`invalid payload: ${error instanceof Error ? error.message : String(error)}`);
    }
    // The child logger is built on first use: building one per run costs more than most runs log.
    let log: Logger | undefined;
    const context: JobContext<D> = {
      jobId: row.id,
      attempt: row.attempts,
      get logger() {
        log ??= state.logger.child({ job: row.kind, job_id: row.id, attempt: row.attempts });
        return log;
      },
      signal: run.controller.signal,
      deps: state.deps,
    };
    await definition.perform(payload, context);
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

async function release<D>(state: RunnerState<D>, run: Run<D>): Promise<void> {
  if (!state.runs.has(run.row.id)) return;
  state.runs.delete(run.row.id);
  state.running.set(run.row.kind, (state.running.get(run.row.kind) ?? 1) - 1);
  if (state.stopping) return;
  try {
    await scheduleRecurring(state, run.definition);
  } catch (error) {
    state.logger.error({ err: error, job: run.row.kind }, "could not schedule the next recurring run");
  }
  state.wake(run.row.kind);
}

/**
 * Renews the lease of every run every third of the shortest lease among them, so a long run is not
 * taken over by another runner; a run whose lease was taken over anyway (this process stalled past
 * it) is aborted and writes no outcome. Stops when no run is left.
 */
export function armHeartbeat<D>(state: RunnerState<D>): void {
  if (state.runs.size === 0) return;
  const period = Math.max(1, Math.min(...[...state.runs.values()].map(leaseMsOf)) / 3);
  if (state.heartbeat && period >= state.heartbeatMs) return;
  if (state.heartbeat) clearTimeout(state.heartbeat);
  state.heartbeatMs = period;
  state.heartbeat = setTimeout(async () => {
    state.heartbeat = null;
    try {
      for (const run of await transact(state.db, async () => await renewLeases(state))) {
        state.logger.warn(
          { job: run.row.kind, job_id: run.row.id, owner: state.owner, node: state.node },
          "job lease lost to another runner; run aborted",
        );
        run.settled = true;
        run.controller.abort(new Error("lease lost"));
        await release(state, run);
      }
    } catch (error) {
      state.logger.error({ err: error }, "could not renew job leases");
    }
    armHeartbeat(state);
  }, period);
  // A timer of its own must not keep a process alive that has nothing else to do.
  state.heartbeat.unref?.();
}
