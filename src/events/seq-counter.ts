import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";
import { definePort } from "../lib/ports";

/**
 * The statement that allocates a workspace's next event seq (`… RETURNING event_seq`, one bound
 * workspace id). The counter sits on a row the event store does not own (workspaces' own, one write
 * per event, as the IMMEDIATE transaction holding that row keeps seqs contiguous), so its owner's
 * SQL is given to each desk at start (buildDeps) instead of being written here.
 */
export const eventSeqCounter = definePort<string>("events.seqCounter");

const counterOf = deskState("events.seq-counter", () => ({ sql: null as string | null }));

export function useEventSeqCounter(db: Db, sql: string): void {
  counterOf(db).sql = sql;
}

export function eventSeqCounterSql(db: Db): string {
  const { sql } = counterOf(db);
  if (!sql)
    throw new Error("appendEvent: this desk has no event seq counter (buildDeps gives it with useEventSeqCounter)");
  return sql;
}
