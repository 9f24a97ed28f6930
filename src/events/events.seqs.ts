import type { Db } from "../db/database";

/**
 * Each workspace's last stored event seq, for the realtime gateway's lag gauge and its start
 * (`live`: deleted workspaces left out). The counter lives on the workspace row today; the gateway
 * asks through this function, so it reads no feature table itself.
 */
export function storedSeqsLookup(db: Db): (live: boolean) => Array<{ id: string; event_seq: number }> {
  const all = db.$client.query<{ id: string; event_seq: number }, []>("SELECT id, event_seq FROM workspaces");
  const live = db.$client.query<{ id: string; event_seq: number }, []>(
    "SELECT id, event_seq FROM workspaces WHERE deleted_at IS NULL",
  );
  return (onlyLive) => (onlyLive ? live : all).all();
}
