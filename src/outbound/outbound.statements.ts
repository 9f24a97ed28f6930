import type { Queryable } from "../db/database";
import { type Dialect, dialectStatements, inListSql, listParam } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import { mailConversations, mailMessageIds } from "./outbound.table";

/** A Message-ID recorded for a ticket, as threading reads it. */
export type TicketMessageId = { messageId: string; deskMessageId: string | null; direction: string };

/** A Message-ID to record; the first record of an id in a workspace wins. */
export type MessageIdRecord = {
  workspaceId: string;
  messageId: string;
  ticketId: string;
  deskMessageId: string | null;
  direction: string;
  createdAt: string;
};

/** A conversation key (Outlook's Thread-Index header) to record; the first ticket to record a key keeps it. */
export type ConversationRecord = { workspaceId: string; key: string; ticketId: string; createdAt: string };

/**
 * The threading maps' statements (Message-IDs and Outlook conversation keys), on the per-message
 * hot path of sending and receiving, so prepared once per connection; column names come from the
 * table definitions. The id lists are JSON text on both engines (`inListSql`: `json_each` on SQLite,
 * `jsonb_array_elements_text` on PostgreSQL); the rest is the same SQL (`ON CONFLICT DO NOTHING`
 * included).
 */
export interface OutboundStatements {
  /** Records a Message-ID (nothing when the workspace already has it). */
  rememberMessageId(entry: MessageIdRecord): Promise<void>;
  /** The tickets these Message-IDs of the workspace belong to (ids not seen are left out). */
  ticketsOfMessageIds(
    workspaceId: string,
    ids: readonly string[],
  ): Promise<Array<{ messageId: string; ticketId: string }>>;
  /** The Desk messages we sent under these Message-IDs. */
  sentDeskMessageIds(workspaceId: string, ids: readonly string[]): Promise<string[]>;
  /** The ticket's recorded Message-IDs, oldest first. */
  messageIdsOfTicket(workspaceId: string, ticketId: string): Promise<TicketMessageId[]>;
  /** Records a conversation key (nothing when the workspace already has it). */
  rememberConversation(entry: ConversationRecord): Promise<void>;
  /** The ticket a conversation key of the workspace belongs to, or null. */
  ticketOfConversation(workspaceId: string, key: string): Promise<string | null>;
  /** The first conversation key the ticket recorded, or null. */
  firstConversationKey(workspaceId: string, ticketId: string): Promise<string | null>;
}

const m = {
  workspaceId: mailMessageIds.workspaceId.name,
  messageId: mailMessageIds.messageId.name,
  ticketId: mailMessageIds.ticketId.name,
  deskMessageId: mailMessageIds.deskMessageId.name,
  direction: mailMessageIds.direction.name,
  createdAt: mailMessageIds.createdAt.name,
};

const c = {
  workspaceId: mailConversations.workspaceId.name,
  key: mailConversations.conversationKey.name,
  ticketId: mailConversations.ticketId.name,
  createdAt: mailConversations.createdAt.name,
};

// The SQL of both engines; aliases are quoted (PostgreSQL folds unquoted names to lower case).
const REMEMBER_ID = `INSERT INTO mail_message_ids (${m.workspaceId}, ${m.messageId}, ${m.ticketId}, ${m.deskMessageId}, ${m.direction}, ${m.createdAt})
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;
const BY_IDS = (
  dialect: Dialect,
) => `SELECT ${m.messageId} AS "messageId", ${m.ticketId} AS "ticketId" FROM mail_message_ids
     WHERE ${m.workspaceId} = +? AND ${inListSql(m.messageId, dialect)}`;
const OF_TICKET = `SELECT ${m.messageId} AS "messageId", ${m.deskMessageId} AS "deskMessageId", ${m.direction} AS direction
     FROM mail_message_ids WHERE ${m.workspaceId} = +? AND ${m.ticketId} = +? ORDER BY ${m.createdAt}`;
const OUTBOUND_DESK = (dialect: Dialect) => `SELECT ${m.deskMessageId} AS "deskMessageId" FROM mail_message_ids
     WHERE ${m.workspaceId} = +? AND ${inListSql(m.messageId, dialect)} AND ${m.direction} = 'outbound'
       AND ${m.deskMessageId} IS NOT NULL`;
const REMEMBER_CONVERSATION = `INSERT INTO mail_conversations (${c.workspaceId}, ${c.key}, ${c.ticketId}, ${c.createdAt}) VALUES (?, ?, ?, ?)
     ON CONFLICT DO NOTHING`;
const TICKET_OF_CONVERSATION = `SELECT ${c.ticketId} AS "ticketId" FROM mail_conversations WHERE ${c.workspaceId} = +? AND ${c.key} = +?`;
const FIRST_KEY_OF = `SELECT ${c.key} AS key FROM mail_conversations WHERE ${c.workspaceId} = +? AND ${c.ticketId} = +?
     ORDER BY ${c.createdAt}, ${c.key} LIMIT 1`;

function prepareOutboundQueries(db: Queryable) {
  const sqlite = sqliteOf(db);
  return {
    rememberId: sqlite.query<unknown, [string, string, string, string | null, string, string]>(REMEMBER_ID),
    byIds: sqlite.query<{ messageId: string; ticketId: string }, [string, string]>(BY_IDS("sqlite")),
    ofTicket: sqlite.query<TicketMessageId, [string, string]>(OF_TICKET),
    outboundDesk: sqlite.query<{ deskMessageId: string }, [string, string]>(OUTBOUND_DESK("sqlite")),
    rememberConversation: sqlite.query<unknown, [string, string, string, string]>(REMEMBER_CONVERSATION),
    ticketOfConversation: sqlite.query<{ ticketId: string }, [string, string]>(TICKET_OF_CONVERSATION),
    firstKeyOf: sqlite.query<{ key: string }, [string, string]>(FIRST_KEY_OF),
  };
}

const sqliteOutboundStatements = (db: Queryable): OutboundStatements => {
  const q = prepareOutboundQueries(db);
  return {
    rememberMessageId: async (e) => {
      q.rememberId.run(e.workspaceId, e.messageId, e.ticketId, e.deskMessageId, e.direction, e.createdAt);
    },
    ticketsOfMessageIds: async (workspaceId, ids) => q.byIds.all(workspaceId, listParam(ids)),
    sentDeskMessageIds: async (workspaceId, ids) =>
      q.outboundDesk.all(workspaceId, listParam(ids)).map((r) => r.deskMessageId),
    messageIdsOfTicket: async (workspaceId, ticketId) => q.ofTicket.all(workspaceId, ticketId),
    rememberConversation: async (e) => {
      q.rememberConversation.run(e.workspaceId, e.key, e.ticketId, e.createdAt);
    },
    ticketOfConversation: async (workspaceId, key) => q.ticketOfConversation.get(workspaceId, key)?.ticketId ?? null,
    firstConversationKey: async (workspaceId, ticketId) => q.firstKeyOf.get(workspaceId, ticketId)?.key ?? null,
  };
};

const postgresOutboundStatements = (db: Queryable): OutboundStatements => {
  const rememberId = postgresQuery<unknown, [string, string, string, string | null, string, string]>(db, REMEMBER_ID);
  const byIds = postgresQuery<{ messageId: string; ticketId: string }, [string, string]>(db, BY_IDS("postgres"));
  const ofTicket = postgresQuery<TicketMessageId, [string, string]>(db, OF_TICKET);
  const outboundDesk = postgresQuery<{ deskMessageId: string }, [string, string]>(db, OUTBOUND_DESK("postgres"));
  const rememberConversation = postgresQuery<unknown, [string, string, string, string]>(db, REMEMBER_CONVERSATION);
  const ticketOfConversation = postgresQuery<{ ticketId: string }, [string, string]>(db, TICKET_OF_CONVERSATION);
  const firstKeyOf = postgresQuery<{ key: string }, [string, string]>(db, FIRST_KEY_OF);
  return {
    rememberMessageId: (e) =>
      rememberId.run(e.workspaceId, e.messageId, e.ticketId, e.deskMessageId, e.direction, e.createdAt),
    ticketsOfMessageIds: (workspaceId, ids) => byIds.all(workspaceId, listParam(ids)),
    sentDeskMessageIds: async (workspaceId, ids) =>
      (await outboundDesk.all(workspaceId, listParam(ids))).map((r) => r.deskMessageId),
    messageIdsOfTicket: (workspaceId, ticketId) => ofTicket.all(workspaceId, ticketId),
    rememberConversation: (e) => rememberConversation.run(e.workspaceId, e.key, e.ticketId, e.createdAt),
    ticketOfConversation: async (workspaceId, key) =>
      (await ticketOfConversation.get(workspaceId, key))?.ticketId ?? null,
    firstConversationKey: async (workspaceId, ticketId) => (await firstKeyOf.get(workspaceId, ticketId))?.key ?? null,
  };
};

export const outboundStatements = dialectStatements<OutboundStatements>({
  sqlite: sqliteOutboundStatements,
  postgres: postgresOutboundStatements,
});
