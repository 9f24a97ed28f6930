import type { Queryable } from "../db/database";
import { outboundStatements } from "./outbound.statements";
import type { mailMessageIds } from "./outbound.table";

/** Our Message-IDs live at the instance domain, so replies to them thread back to us. */
export const outboundMessageId = (deskMessageId: string, domain: string) => `${deskMessageId}@${domain}`.toLowerCase();

export type MessageIdEntry = typeof mailMessageIds.$inferSelect;

/** Records a Message-ID we received or sent for its ticket (the first record of an id wins). */
export async function rememberMessageId(
  db: Queryable,
  entry: Pick<MessageIdEntry, "workspaceId" | "messageId" | "ticketId" | "deskMessageId" | "direction" | "createdAt">,
): Promise<void> {
  await outboundStatements(db).rememberMessageId(entry);
}

/** The tickets that Message-IDs of this workspace belong to (ids not seen are left out). */
export const ticketsOfMessageIds = async (
  db: Queryable,
  workspaceId: string,
  ids: string[],
): Promise<Array<{ messageId: string; ticketId: string }>> =>
  await outboundStatements(db).ticketsOfMessageIds(workspaceId, ids);

/** The Desk messages we sent under these Message-IDs (a delivery report names them). */
export const sentDeskMessageIds = async (db: Queryable, workspaceId: string, ids: string[]): Promise<string[]> =>
  await outboundStatements(db).sentDeskMessageIds(workspaceId, ids);

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
  const ids = (await outboundStatements(db).messageIdsOfTicket(workspaceId, ticketId)).filter(
    (r) => r.deskMessageId !== exceptId && (r.deskMessageId === null || inThread(r.deskMessageId)),
  );
  const lastInbound = [...ids].reverse().find((r) => r.direction === "inbound");
  return {
    inReplyTo: lastInbound ? `<${lastInbound.messageId}>` : ids.length ? `<${ids.at(-1)!.messageId}>` : null,
    references: ids.slice(-20).map((r) => `<${r.messageId}>`),
  };
}
