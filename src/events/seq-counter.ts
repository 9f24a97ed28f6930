import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";
import { definePort } from "../lib/ports";

/**
 * Allocates a workspace's next event seq from the event store's own counter (`event_seqs`). The
 * upsert holds the workspace's counter row until commit, so a second writer of the same workspace
 * waits: seqs stay contiguous and are committed in seq order, which consumer cursors rely on. It is
 * run when the event is appended, not at commit: the event row, its hooks and its publication
 * need the seq then; holding the row for the rest of the transaction is the price.
 */
export const nextEventSeqSql =
  "INSERT INTO event_seqs (workspace_id, last_seq) VALUES (?, 1) ON CONFLICT (workspace_id) DO UPDATE SET last_seq = event_seqs.last_seq + 1 RETURNING last_seq";

/**
 * A statement answering a row when the workspace exists (one bound workspace id). The event store
 * asks it only when it starts a workspace's counter, so an event for a workspace that does not
 * exist still fails; its owner's SQL is given to each desk at start (buildDeps).
 */
export const eventWorkspaceCheck = definePort<string>("events.workspaceCheck");

const checkOf = deskState("events.workspace-check", () => ({ sql: null as string | null }));

export function useEventWorkspaceCheck(db: Db, sql: string): void {
  checkOf(db).sql = sql;
}

export function eventWorkspaceCheckSql(db: Db): string {
  const { sql } = checkOf(db);
  if (!sql)
    throw new Error("appendEvent: this desk has no workspace check (buildDeps gives it with useEventWorkspaceCheck)");
  return sql;
}
