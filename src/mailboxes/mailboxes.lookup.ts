import { first } from "../db/store";
import { asc, count, eq } from "drizzle-orm";
import type { Queryable } from "../db/database";
import type { MailboxRow } from "./mailboxes.present";
import { mailboxStatements } from "./mailboxes.statements";
import { mailboxes } from "./mailboxes.table";

/** The mailbox whose own or forwarding address is `address` or `base` (the address without its plus part). */
export const mailboxByAddress = (db: Queryable, address: string, base: string): Promise<MailboxRow | undefined> =>
  mailboxStatements(db).byAddress(address, base);

/** The status of that same mailbox alone (asked at every RCPT TO). */
export const mailboxStatusByAddress = (db: Queryable, address: string, base: string): Promise<string | undefined> =>
  mailboxStatements(db).statusByAddress(address, base);

/** Whether `email` is one of this workspace's own mailbox addresses. */
export const isOwnMailboxAddress = (db: Queryable, workspaceId: string, email: string): Promise<boolean> =>
  mailboxStatements(db).isOwnAddress(workspaceId, email);

/** Whether this workspace has a mailbox with this id (a ticket's or a view's mailbox is checked on every write). */
export const mailboxExists = (db: Queryable, workspaceId: string, mailboxId: string): Promise<boolean> =>
  mailboxStatements(db).existsInWorkspace(workspaceId, mailboxId);

/** A mailbox by id, in whichever workspace (jobs carry the id; callers check the workspace). */
export const mailboxById = async (db: Queryable, id: string): Promise<MailboxRow | undefined> =>
  first(await db.select().from(mailboxes).where(eq(mailboxes.id, id)).limit(1));

/** The workspace's mailboxes, oldest first (the first is the default "From" of a new email ticket). */
export const mailboxesOf = async (db: Queryable, workspaceId: string): Promise<MailboxRow[]> =>
  await db.select().from(mailboxes).where(eq(mailboxes.workspaceId, workspaceId)).orderBy(asc(mailboxes.createdAt));

/** The workspace's first mailbox: replies on tickets without one are sent from it. */
export const firstMailboxOf = async (db: Queryable, workspaceId: string): Promise<MailboxRow | undefined> =>
  first(
    await db
      .select()
      .from(mailboxes)
      .where(eq(mailboxes.workspaceId, workspaceId))
      .orderBy(asc(mailboxes.createdAt))
      .limit(1),
  );

/** Where the IMAP poller stands in a mailbox (UIDVALIDITY and the last UID fetched). */
export const setImapPosition = async (
  db: Queryable,
  id: string,
  position: { uidValidity: MailboxRow["imapUidValidity"]; lastUid: number },
): Promise<void> => {
  await db
    .update(mailboxes)
    .set({ imapUidValidity: position.uidValidity, imapLastUid: position.lastUid })
    .where(eq(mailboxes.id, id));
};

export type MailboxHealth = {
  id: string;
  workspaceId: string;
  name: string;
  email: string;
  status: "active" | "error" | "disabled";
  lastError: string;
  lastSyncedAt: string | null;
};

/** Every mailbox's state, of one workspace or (null) of the instance: the System page and readiness. */
export async function mailboxHealthOf(db: Queryable, workspaceId: string | null): Promise<MailboxHealth[]> {
  return await db
    .select({
      id: mailboxes.id,
      workspaceId: mailboxes.workspaceId,
      name: mailboxes.name,
      email: mailboxes.email,
      status: mailboxes.status,
      lastError: mailboxes.lastError,
      lastSyncedAt: mailboxes.lastSyncedAt,
    })
    .from(mailboxes)
    .where(workspaceId === null ? undefined : eq(mailboxes.workspaceId, workspaceId))
    .orderBy(asc(mailboxes.createdAt));
}

/** How many mailboxes a workspace has (billing's usage counts). */
export const mailboxCountOf = async (db: Queryable, workspaceId: string): Promise<number> =>
  first(await db.select({ n: count() }).from(mailboxes).where(eq(mailboxes.workspaceId, workspaceId)).limit(1))?.n ?? 0;
