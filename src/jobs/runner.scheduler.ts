import { reclaimExpired } from "./runner.leases";
import { claimDue, freeSlots } from "./runner.run";
import type { RunnerState } from "./runner.state";

/**
 * Runs started by one scheduler turn. Starting a run costs synchronous work (payload parse, the
 * handler's first DB reads); past this many the turn yields to the event loop so HTTP requests
 * are served between batches, and the next turn claims the rest.
 */
const MAX_STARTS_PER_TURN = 16;

export async function armTimer<D>(state: RunnerState<D>): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  if (!state.started || state.stopping) return;
  const startable = [...state.definitions.values()].filter((d) => freeSlots(state, d) > 0).map((d) => d.name);
  const due = startable.length ? await state.statements.nextDueAt(startable) : null;
  const wait = due ? Math.max(0, new Date(due).getTime() - state.clock.now().getTime()) : state.pollMs;
  state.timer = setTimeout(() => void tick(state), Math.min(wait, state.pollMs));
}

/** One scheduler turn: claims for the kinds that may have work (all of them unless a wake narrowed it). */
export async function tick<D>(state: RunnerState<D>, only: Set<string> | null = null): Promise<void> {
  if (!state.started || state.stopping) return;
  if (state.ticking) {
    state.tickAgain = true;
    return;
  }
  state.ticking = true;
  state.turn = turn(state, only);
  try {
    await state.turn;
  } finally {
    state.turn = null;
  }
}

/** The turn's claims, then its timer; it logs what fails rather than rejecting. */
async function turn<D>(state: RunnerState<D>, only: Set<string> | null): Promise<void> {
  let unfinished: string[] = [];
  try {
    // Runs of a dead or stalled runner (any node) whose lease ran out: their kinds may have work again.
    if ((await reclaimExpired(state)) > 0) only = null;
    do {
      state.tickAgain = false;
      unfinished = (await claimDue(state, only, MAX_STARTS_PER_TURN)).unfinished;
    } while (state.tickAgain && unfinished.length === 0);
  } catch (error) {
    state.logger.error({ err: error }, "job scheduler tick failed");
  } finally {
    state.ticking = false;
  }
  try {
    await armTimer(state);
  } catch (error) {
    state.logger.error({ err: error }, "job scheduler could not arm its timer");
  }
  for (const kind of unfinished) wake(state, kind);
}

/**
 * Asks for a scheduler turn on the next event-loop pass (not a microtask: a burst of finished runs
 * or commits then shares one turn, and requests already waiting are served first). `kind` narrows
 * the turn to that kind (a freed slot); without it every kind is claimed (new commits, timer).
 */
export function wake<D>(state: RunnerState<D>, kind?: string): void {
  if (!state.started || state.stopping) return;
  if (kind === undefined) state.kindsToClaim = null;
  else state.kindsToClaim?.add(kind);
  if (state.wakeQueued) return;
  state.wakeQueued = true;
  setImmediate(async () => {
    state.wakeQueued = false;
    const only = state.kindsToClaim;
    state.kindsToClaim = new Set();
    await tick(state, only);
  });
}
