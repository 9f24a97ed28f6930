import { getTableName } from "drizzle-orm";
import { eventSeqs, events } from "./events.table";

/**
 * The stored events table and its columns as bare SQL names read from the table definition, for a
 * feature that joins its own rows to the events they point at (webhook deliveries): the composed
 * SQL reads as it did written out, and a renamed column is renamed here.
 */
export const eventsSql = {
  table: getTableName(events),
  id: events.id.name,
  seq: events.seq.name,
  workspaceId: events.workspaceId.name,
  type: events.type.name,
  visibility: events.visibility.name,
  data: events.data.name,
  occurredAt: events.occurredAt.name,
};

/**
 * The event store's per-workspace counter as bare SQL names, for the workspaces' own read of each
 * workspace's last stored seq (the realtime gateway's lag gauge) joined to their rows.
 */
export const eventSeqsSql = {
  table: getTableName(eventSeqs),
  workspaceId: eventSeqs.workspaceId.name,
  lastSeq: eventSeqs.lastSeq.name,
};
