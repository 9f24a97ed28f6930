import type { Db } from "../db/database";

/**
 * Each workspace's event seq lives on its row (`event_seq`): the event store runs this statement in
 * every event's transaction (one write per event), given to it at start by the composition root.
 */
export const nextEventSeqSql = "UPDATE workspaces SET event_seq = event_seq + 1 WHERE id = ? RETURNING event_seq";

/**
 * Each workspace's last stored event seq, for the realtime gateway's lag gauge and its start
 * (`live`: deleted workspaces left out). The gateway asks through this function, so it reads no
 * feature table itself.
 */
export function storedSeqsLookup(db: Db): (live: boolean) => Array<{ id: string; event_seq: number }> {
  const all = db.$client.query<{ id: string; event_seq: number }, []>("SELECT id, event_seq FROM workspaces");
  const live = db.$client.query<{ id: string; event_seq: number }, []>(
    "SELECT id, event_seq FROM workspaces WHERE deleted_at IS NULL",
  );
  return (onlyLive) => (onlyLive ? live : all).all();
}
