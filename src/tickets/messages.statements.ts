import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { preparedFor } from "../db/sqlite/prepared";
import type { MessageRow } from "./messages.table";

const INSERT_COLUMNS = `INSERT INTO messages (id, workspace_id, ticket_id, kind, direction, author_type, author_user_id, author_contact_id, body_html, body_text,
       has_quoted, subject, from_email, from_name, "to", cc, bcc, delivery_status, delivery_error, reply_to, auth_failed, form_sender,
       email_message_id, original_path, created_at, forward)`;

/** The message insert of the write path, prepared once per connection (see src/tickets/tickets.statements.ts). */
const statements = preparedFor((sqlite) => ({
  insert: sqlite.query<unknown, Array<string | number | null>>(
    `${INSERT_COLUMNS}
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
}));

type FirstMessage = { id: string; direction: "inbound" | "outbound"; bodyText: string; fromEmail: string };

const FIRST =
  'SELECT id, direction, body_text AS "bodyText", from_email AS "fromEmail" FROM messages WHERE ticket_id = +? ORDER BY created_at, id LIMIT 1';

const firstStatements = preparedFor((sqlite) => ({
  first: sqlite.query<FirstMessage, [string]>(FIRST),
}));

/**
 * The message writes and reads of the write path (the insert, a ticket's first message). SQLite
 * runs them prepared on the connection; the PostgreSQL twin runs the same SQL with the address
 * lists bound as JSON text cast to jsonb and the flags as booleans.
 */
type MessageWriteStatements = {
  insert(row: MessageRow): Promise<void>;
  first(ticketId: string): Promise<FirstMessage | undefined>;
};

const messageWrites = dialectStatements<MessageWriteStatements>({
  sqlite: (db) => {
    const s = statements(db);
    const f = firstStatements(db);
    return {
      insert: async (row) => {
        s.insert.run(
          row.id,
          row.workspaceId,
          row.ticketId,
          row.kind,
          row.direction,
          row.authorType,
          row.authorUserId,
          row.authorContactId,
          row.bodyHtml,
          row.bodyText,
          row.hasQuoted ? 1 : 0,
          row.subject,
          row.fromEmail,
          row.fromName,
          JSON.stringify(row.to),
          JSON.stringify(row.cc),
          JSON.stringify(row.bcc),
          row.deliveryStatus,
          row.deliveryError,
          row.replyTo,
          row.authFailed ? 1 : 0,
          row.formSender,
          row.emailMessageId,
          row.originalPath,
          row.createdAt,
          row.forward ? 1 : 0,
        );
      },
      first: async (ticketId) => f.first.get(ticketId) ?? undefined,
    };
  },
  postgres: (db) => {
    const insert = postgresQuery<unknown, unknown[]>(
      db,
      `${INSERT_COLUMNS}
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::text::jsonb, ?::text::jsonb, ?::text::jsonb, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const first = postgresQuery<FirstMessage, [string]>(db, FIRST);
    return {
      insert: (row) =>
        insert.run(
          row.id,
          row.workspaceId,
          row.ticketId,
          row.kind,
          row.direction,
          row.authorType,
          row.authorUserId,
          row.authorContactId,
          row.bodyHtml,
          row.bodyText,
          row.hasQuoted,
          row.subject,
          row.fromEmail,
          row.fromName,
          JSON.stringify(row.to),
          JSON.stringify(row.cc),
          JSON.stringify(row.bcc),
          row.deliveryStatus,
          row.deliveryError,
          row.replyTo,
          row.authFailed,
          row.formSender,
          row.emailMessageId,
          row.originalPath,
          row.createdAt,
          row.forward,
        ),
      first: async (ticketId) => (await first.get(ticketId)) ?? undefined,
    };
  },
});

/** Inserts a complete row (every column given, so the row in hand is exactly what is stored). */
export const insertMessageRow = (db: Queryable, row: MessageRow): Promise<void> => messageWrites(db).insert(row);

/** A ticket's first message (what it was opened with), or undefined when it has none. */
export const firstMessageOf = (db: Queryable, ticketId: string): Promise<FirstMessage | undefined> =>
  messageWrites(db).first(ticketId);

/**
 * The reads of every mailed reply (the send job runs them per mail), prepared once per connection:
 * building a drizzle query cost more than running it. Their SQL is portable: the PostgreSQL twin
 * runs the same queries (with a `?` per parameter where SQLite numbers them) and reads the flags
 * and address lists as the driver gives them (boolean, jsonb) rather than parsing 0/1 and text.
 */
export type MessageReadStatements = {
  /** A message of the workspace by id. */
  ofWorkspace(workspaceId: string, id: string): Promise<MessageRow | undefined>;
  /** At most `limit` replies (never notes) of the ticket before (created_at, id), newest first. */
  repliesBefore(
    workspaceId: string,
    before: Pick<MessageRow, "id" | "ticketId" | "createdAt">,
    limit: number,
  ): Promise<MessageRow[]>;
};

/** messages as SQLite returns it: JSON as text, flags as 0/1. */
type RawMessage = Omit<MessageRow, "hasQuoted" | "authFailed" | "forward" | "to" | "cc" | "bcc"> & {
  hasQuoted: number;
  authFailed: number;
  forward: number;
  to: string;
  cc: string;
  bcc: string;
};
// Aliases are quoted: PostgreSQL folds unquoted names to lower case (SQLite reads them the same).
const MESSAGE = `id, workspace_id AS "workspaceId", ticket_id AS "ticketId", kind, direction, author_type AS "authorType",
  author_user_id AS "authorUserId", author_contact_id AS "authorContactId", body_html AS "bodyHtml", body_text AS "bodyText",
  has_quoted AS "hasQuoted", subject, from_email AS "fromEmail", from_name AS "fromName", "to", cc, bcc,
  delivery_status AS "deliveryStatus", delivery_error AS "deliveryError", delivery_via AS "deliveryVia", reply_to AS "replyTo",
  auth_failed AS "authFailed", form_sender AS "formSender", forward, email_message_id AS "emailMessageId",
  original_path AS "originalPath", created_at AS "createdAt"`;
const OF_WORKSPACE = `SELECT ${MESSAGE} FROM messages WHERE id = +? AND workspace_id = +?`;

const messageOf = (raw: RawMessage): MessageRow => ({
  ...raw,
  hasQuoted: raw.hasQuoted === 1,
  authFailed: raw.authFailed === 1,
  forward: raw.forward === 1,
  to: JSON.parse(raw.to) as string[],
  cc: JSON.parse(raw.cc) as string[],
  bcc: JSON.parse(raw.bcc) as string[],
});

// Written as the query builder wrote them (the same predicates, index walk and order), prepared on the connection.
const readStatements = preparedFor((sqlite) => ({
  ofWorkspace: sqlite.query<RawMessage, [string, string]>(OF_WORKSPACE),
  repliesBefore: sqlite.query<RawMessage, [string, string, string, string, string, number]>(
    `SELECT ${MESSAGE} FROM messages WHERE ticket_id = +?1 AND workspace_id = +?2 AND kind = +?3
       AND (created_at < +?4 OR (created_at = +?4 AND id < +?5)) ORDER BY created_at DESC, id DESC LIMIT ?6`,
  ),
}));

/** Statements of the connection, taken while `db` is live: the handle may be a transaction that ends. */
const sqliteMessageReads = (db: Queryable): MessageReadStatements => {
  const s = readStatements(db);
  return {
    ofWorkspace: async (workspaceId, id) => {
      const raw = s.ofWorkspace.get(id, workspaceId);
      return raw ? messageOf(raw) : undefined;
    },
    repliesBefore: async (workspaceId, before, limit) =>
      s.repliesBefore.all(before.ticketId, workspaceId, "reply", before.createdAt, before.id, limit).map(messageOf),
  };
};

const postgresMessageReads = (db: Queryable): MessageReadStatements => {
  const ofWorkspace = postgresQuery<MessageRow, [string, string]>(db, OF_WORKSPACE);
  const repliesBefore = postgresQuery<MessageRow, [string, string, string, string, string, string, number]>(
    db,
    `SELECT ${MESSAGE} FROM messages WHERE ticket_id = ? AND workspace_id = ? AND kind = ?
       AND (created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  return {
    ofWorkspace: async (workspaceId, id) => (await ofWorkspace.get(id, workspaceId)) ?? undefined,
    repliesBefore: (workspaceId, before, limit) =>
      repliesBefore.all(before.ticketId, workspaceId, "reply", before.createdAt, before.createdAt, before.id, limit),
  };
};

export const messageReadStatements = dialectStatements<MessageReadStatements>({
  sqlite: sqliteMessageReads,
  postgres: postgresMessageReads,
});
