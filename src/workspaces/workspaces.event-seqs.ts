import type { Db } from "../db/database";
import { workspaceStatements } from "./workspaces.statements";

/**
 * The event store counts each workspace's seqs in its own table and asks this only when it starts a
 * workspace's counter, so an event for a workspace that does not exist fails (given to it at start).
 */
export const workspaceExistsSql = "SELECT 1 AS found FROM workspaces WHERE id = ?";

/**
 * Each workspace's last stored event seq, for the realtime gateway's lag gauge and its start
 * (`live`: deleted workspaces left out). The gateway asks through this function, so it reads no
 * feature table itself.
 */
export function storedSeqsLookup(db: Db): (live: boolean) => Promise<Array<{ id: string; event_seq: number }>> {
  return workspaceStatements(db).storedSeqs;
}
