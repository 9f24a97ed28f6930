import { getTableName } from "drizzle-orm";
import { events } from "./events.table";

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
