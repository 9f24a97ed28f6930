import type { Queryable } from "../db/database";
import { preparedFor } from "../db/prepared";
import type { MessageRow } from "./messages.table";

/** The message insert of the write path, prepared once per connection (see src/tickets/tickets.statements.ts). */
const statements = preparedFor((sqlite) => ({
  insert: sqlite.query<unknown, Array<string | number | null>>(
    `INSERT INTO messages (id, workspace_id, ticket_id, kind, direction, author_type, author_user_id, author_contact_id, body_html, body_text,
       has_quoted, subject, from_email, from_name, "to", cc, bcc, delivery_status, delivery_error, reply_to, auth_failed, form_sender,
       email_message_id, original_path, created_at, forward)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
}));

/** Inserts a complete row (every column given, so the row in hand is exactly what is stored). */
export async function insertMessageRow(db: Queryable, row: MessageRow): Promise<void> {
  statements(db).insert.run(
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
}

type FirstMessage = { id: string; direction: "inbound" | "outbound"; bodyText: string; fromEmail: string };

const firstStatements = preparedFor((sqlite) => ({
  first: sqlite.query<FirstMessage, [string]>(
    "SELECT id, direction, body_text AS bodyText, from_email AS fromEmail FROM messages WHERE ticket_id = +? ORDER BY created_at, id LIMIT 1",
  ),
}));

/** A ticket's first message (what it was opened with), or undefined when it has none. */
export const firstMessageOf = async (db: Queryable, ticketId: string): Promise<FirstMessage | undefined> =>
  firstStatements(db).first.get(ticketId) ?? undefined;
