import { z } from "zod";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { autoCloseTicket, solvedTicketsBefore } from "../tickets/tickets.public";
import { autoCloseDaysOfWorkspaces } from "../workspaces/workspaces.public";

const DAY_MS = 24 * 3600 * 1000;
/** Tickets closed per workspace and query; the pass repeats until none is left (bounded per run). */
const BATCH = 200;
const MAX_PER_RUN = 10_000;

/**
 * Closes solved tickets whose `solved_at` is `auto_close_days` (WorkspaceSettings, default 4;
 * 0 = never) or more in the past. Each workspace costs one seek in `tickets_ws_autoclose_idx`
 * (live solved tickets only), so the pass stays cheap however many tickets are closed already.
 * Answers how many tickets it closed.
 */
export async function autoCloseDueTickets(deps: Deps, signal?: AbortSignal): Promise<number> {
  let closed = 0;
  for (const { id, days } of await autoCloseDaysOfWorkspaces(deps.db)) {
    if (days <= 0) continue;
    const cutoff = new Date(deps.clock.now().getTime() - days * DAY_MS).toISOString();
    for (;;) {
      if (signal?.aborted || closed >= MAX_PER_RUN) return closed;
      const due = await solvedTicketsBefore(deps.db, id, cutoff, BATCH);
      for (const ticketId of due) if (await autoCloseTicket(id, ticketId, cutoff, deps)) closed++;
      if (due.length < BATCH) break;
      // Let requests in between batches (each close is its own savepoint in the turn's commit).
      await Bun.sleep(0);
    }
  }
  return closed;
}

/** Every 15 minutes: a solved ticket closes at most 15 minutes after its time has come. */
export const autoCloseJob = defineJob({
  name: "tickets.auto-close",
  schema: z.object({}),
  schedule: "*/15 * * * *",
  concurrency: 1,
  async handler(_payload, { deps, logger, signal }: JobContext<Deps>) {
    const closed = await autoCloseDueTickets(deps, signal);
    if (closed > 0) logger.info({ closed }, "solved tickets auto-closed");
  },
});
