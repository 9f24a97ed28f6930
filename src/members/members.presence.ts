import type { Db, Queryable } from "../db/database";
import { deskState } from "../db/desk-state";
import type { MemberRow } from "./members.present";

/**
 * Auto-away: the time before which a member's last heartbeat counts as gone (null: auto-away is
 * off in that workspace). The assignment feature owns `auto_away_minutes`, so it supplies the rule
 * from its module's set-up; until it does, presence is the member's own availability.
 */
export type AwayCutoff = (db: Queryable, workspaceId: string) => string | null;

const cutoffOf = deskState<{ rule: AwayCutoff | null }>("members.away-cutoff", () => ({ rule: null }));

export function registerAwayCutoff(db: Db, rule: AwayCutoff): void {
  cutoffOf(db).rule = rule;
}

export function awayCutoff(db: Db, tx: Queryable, workspaceId: string): string | null {
  return cutoffOf(db).rule?.(tx, workspaceId) ?? null;
}

/**
 * SPEC.md's `presence`: the availability the member set, except that an online member with no
 * heartbeat since the cutoff shows as away.
 */
export function presenceOf(
  row: Pick<MemberRow, "availability" | "lastSeenAt">,
  cutoff: string | null,
): MemberRow["availability"] {
  if (row.availability !== "online" || cutoff === null) return row.availability;
  return row.lastSeenAt !== null && row.lastSeenAt >= cutoff ? "online" : "away";
}
