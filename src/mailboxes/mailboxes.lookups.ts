import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { preparedFor } from "../db/prepared";
import type { MailboxRow } from "./mailboxes.present";
import { mailboxes } from "./mailboxes.table";

/**
 * The lookups every received message makes (inbound doors: SMTP, HTTP, IMAP), compiled once per
 * database: building a Drizzle query costs more than running it, and these run several times per
 * message on the hot path.
 */
const lookupsOf = preparedFor((sqlite, db) => ({
  mailboxByAddress: db
    .select()
    .from(mailboxes)
    .where(
      or(
        inArray(mailboxes.email, [sql.placeholder("address"), sql.placeholder("base")]),
        inArray(mailboxes.forwardingAddress, [sql.placeholder("address"), sql.placeholder("base")]),
      ),
    )
    .prepare(),
  // The same rows as the Drizzle builder would give, read without its per-row mapping; the column
  // names come from the table definition, so a rename is a type error here too.
  recipientStatus: sqlite.query<{ status: string }, [string, string, string, string]>(
    `SELECT ${mailboxes.status.name} AS status FROM mailboxes WHERE ${mailboxes.email.name} IN (?, ?) OR ${mailboxes.forwardingAddress.name} IN (?, ?)`,
  ),
  ownAddress: sqlite.query<{ id: string }, [string, string]>(
    `SELECT ${mailboxes.id.name} AS id FROM mailboxes WHERE ${mailboxes.workspaceId.name} = +? AND ${mailboxes.email.name} = +?`,
  ),
}));

/**
 * The mailbox whose own or forwarding address is `address` or `base` (the address without its
 * plus tag; inbound decides how addresses are read).
 */
export const mailboxAtAddress = (db: Queryable, address: string, base: string): MailboxRow | undefined =>
  lookupsOf(db).mailboxByAddress.get({ address, base });

/** Asked at every RCPT TO: the status alone of the row mailboxAtAddress would find. */
export const mailboxStatusAtAddress = (db: Queryable, address: string, base: string): string | undefined =>
  lookupsOf(db).recipientStatus.get(address, base, address, base)?.status;

/** True when `email` is the address of one of the workspace's mailboxes (mail we sent ourselves). */
export const isOwnMailboxAddress = (db: Queryable, workspaceId: string, email: string): boolean =>
  !!lookupsOf(db).ownAddress.get(workspaceId, email);

/** A mailbox by id alone: for jobs whose payload was written by Desk itself (sync, sending). */
export const mailboxById = (db: Queryable, id: string): MailboxRow | undefined =>
  db.select().from(mailboxes).where(eq(mailboxes.id, id)).get();

/** The mailbox a ticket's replies leave from: the ticket's own, else the workspace's oldest. */
export function sendingMailboxOf(db: Queryable, workspaceId: string, mailboxId: string | null): MailboxRow | undefined {
  return mailboxId
    ? db
        .select()
        .from(mailboxes)
        .where(and(eq(mailboxes.id, mailboxId), eq(mailboxes.workspaceId, workspaceId)))
        .get()
    : db.select().from(mailboxes).where(eq(mailboxes.workspaceId, workspaceId)).orderBy(asc(mailboxes.createdAt)).get();
}

/** Where an IMAP mailbox's reading stopped (its UIDVALIDITY and last UID). */
export function recordImapPosition(
  db: Queryable,
  id: string,
  position: { uidValidity: string | null; lastUid: number },
) {
  db.update(mailboxes)
    .set({ imapUidValidity: position.uidValidity, imapLastUid: position.lastUid })
    .where(eq(mailboxes.id, id))
    .run();
}
