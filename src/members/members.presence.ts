import type { Queryable } from "../db/database";
import type { Clock } from "../lib/clock";
import { definePort, type Ports } from "../lib/ports";
import type { MemberRow } from "./members.present";

/**
 * Auto-away: the time before which a member's last heartbeat counts as gone at `now` (null:
 * auto-away is off in that workspace). The assignment feature owns `auto_away_minutes`, so it
 * supplies the rule.
 */
export type AwayCutoff = (db: Queryable, workspaceId: string, now: Date) => (string | null) | Promise<string | null>;

export const awayCutoff = definePort<AwayCutoff>("members.awayCutoff");

export async function awayCutoffOf(
  deps: { ports: Ports; clock: Clock },
  tx: Queryable,
  workspaceId: string,
): Promise<string | null> {
  return await deps.ports.get(awayCutoff)(tx, workspaceId, deps.clock.now());
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
