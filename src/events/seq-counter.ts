import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";
import { definePort } from "../lib/ports";

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
