import type { Queryable } from "../db/database";
import { jsonList, preparedFor } from "../db/prepared";
import { mailMessageIds } from "./outbound.table";

/** Our Message-IDs live at the instance domain, so replies to them thread back to us. */
export const outboundMessageId = (deskMessageId: string, domain: string) => `${deskMessageId}@${domain}`.toLowerCase();

export type MessageIdEntry = typeof mailMessageIds.$inferSelect;

// Raw SQL for the per-message hot path (drizzle would build the SQL text on every call); the column
// names come from the table definition, so a renamed column cannot drift from these statements.
const m = {
  workspaceId: mailMessageIds.workspaceId.name,
  messageId: mailMessageIds.messageId.name,
  ticketId: mailMessageIds.ticketId.name,
  deskMessageId: mailMessageIds.deskMessageId.name,
  direction: mailMessageIds.direction.name,
  createdAt: mailMessageIds.createdAt.name,
};

const statements = preparedFor((sqlite) => ({
  remember: sqlite.query<unknown, [string, string, string, string | null, string, string]>(
    `INSERT INTO mail_message_ids (${m.workspaceId}, ${m.messageId}, ${m.ticketId}, ${m.deskMessageId}, ${m.direction}, ${m.createdAt})
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  ),
  byIds: sqlite.query<{ messageId: string; ticketId: string }, [string, string]>(
    `SELECT ${m.messageId} AS messageId, ${m.ticketId} AS ticketId FROM mail_message_ids
     WHERE ${m.workspaceId} = +? AND ${m.messageId} IN (SELECT value FROM json_each(+?))`,
  ),
  ofTicket: sqlite.query<{ messageId: string; deskMessageId: string | null; direction: string }, [string, string]>(
    `SELECT ${m.messageId} AS messageId, ${m.deskMessageId} AS deskMessageId, ${m.direction} AS direction
     FROM mail_message_ids WHERE ${m.workspaceId} = +? AND ${m.ticketId} = +? ORDER BY ${m.createdAt}`,
  ),
  outboundDesk: sqlite.query<{ deskMessageId: string }, [string, string]>(
    `SELECT ${m.deskMessageId} AS deskMessageId FROM mail_message_ids
     WHERE ${m.workspaceId} = +? AND ${m.messageId} IN (SELECT value FROM json_each(+?)) AND ${m.direction} = 'outbound'
       AND ${m.deskMessageId} IS NOT NULL`,
  ),
}));

/** Records a Message-ID we received or sent for its ticket (the first record of an id wins). */
export async function rememberMessageId(
  db: Queryable,
  entry: Pick<MessageIdEntry, "workspaceId" | "messageId" | "ticketId" | "deskMessageId" | "direction" | "createdAt">,
): Promise<void> {
  statements(db).remember.run(
    entry.workspaceId,
    entry.messageId,
    entry.ticketId,
    entry.deskMessageId,
    entry.direction,
    entry.createdAt,
  );
}

/** The tickets that Message-IDs of this workspace belong to (ids not seen are left out). */
export const ticketsOfMessageIds = async (
  db: Queryable,
  workspaceId: string,
  ids: string[],
): Promise<Array<{ messageId: string; ticketId: string }>> => statements(db).byIds.all(workspaceId, jsonList(ids));

/** The Desk messages we sent under these Message-IDs (a delivery report names them). */
export const sentDeskMessageIds = async (db: Queryable, workspaceId: string, ids: string[]): Promise<string[]> =>
  statements(db)
    .outboundDesk.all(workspaceId, jsonList(ids))
    .map((r) => r.deskMessageId);

export type Thread = { inReplyTo: string | null; references: string[] };

/**
 * In-Reply-To and References for a reply on a ticket: the last message received, else the last one
 * sent. `inThread` leaves out Desk messages of another conversation on the ticket (a forward and its
 * recipient's answers), so the customer's thread never names them.
 */
export async function threadHeaders(
  db: Queryable,
  workspaceId: string,
  ticketId: string,
  exceptId: string,
  inThread: (deskMessageId: string) => boolean = () => true,
): Promise<Thread> {
  const ids = statements(db)
    .ofTicket.all(workspaceId, ticketId)
    .filter((r) => r.deskMessageId !== exceptId && (r.deskMessageId === null || inThread(r.deskMessageId)));
  const lastInbound = [...ids].reverse().find((r) => r.direction === "inbound");
  return {
    inReplyTo: lastInbound ? `<${lastInbound.messageId}>` : ids.length ? `<${ids.at(-1)!.messageId}>` : null,
    references: ids.slice(-20).map((r) => `<${r.messageId}>`),
  };
}
