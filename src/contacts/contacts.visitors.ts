import { first, one } from "../db/store";
import { and, eq, isNull } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { appendEvent } from "../events/append";
import { newId } from "../lib/ids";
import type { Ports } from "../lib/ports";
import { contactCreated, contactUpdated } from "./contacts.events";
import { presentContact, type ContactRow } from "./contacts.present";
import { holderOfEmail } from "./contacts.emails";
import { insertContactRow } from "./contacts.statements";
import { contacts } from "./contacts.table";
import { normalizeEmail } from "./contacts.text";
import { contactTicketCounts } from "./contacts.ticket-counts";

/**
 * Contacts as the chat widget makes them. A verified visitor is the contact with their
 * `external_id` (created on first visit); an unverified visitor gets a contact of their own and
 * never an existing contact (whose history they could otherwise read), so an email another
 * contact already holds is not stored on theirs.
 */

export async function liveContactByExternalId(
  db: Queryable,
  workspaceId: string,
  externalId: string,
): Promise<ContactRow | undefined> {
  return first(
    await db
      .select()
      .from(contacts)
      .where(
        and(eq(contacts.workspaceId, workspaceId), eq(contacts.externalId, externalId), isNull(contacts.deletedAt)),
      )
      .limit(1),
  );
}

/** True when a live contact of the workspace other than `exceptId` holds this email. */
export async function emailTaken(
  db: Queryable,
  workspaceId: string,
  email: string,
  exceptId: string | null,
): Promise<boolean> {
  return (await holderOfEmail(db, workspaceId, normalizeEmail(email, "body.email"), exceptId)) !== undefined;
}

/** Creates a visitor's contact; `email` must be free (see emailTaken). Appends `contact.created`. */
export async function createVisitorContact(
  tx: Tx,
  ctx: RequestContext,
  input: { email: string | null; name: string; externalId: string | null },
  now: string,
  ports: Ports,
): Promise<ContactRow> {
  const row: ContactRow = {
    id: newId(),
    workspaceId: ctx.workspaceId,
    email: input.email === null ? null : normalizeEmail(input.email, "body.email"),
    name: input.name.trim().slice(0, 200),
    phone: "",
    notes: "",
    companyId: null,
    externalId: input.externalId,
    custom: {},
    blocked: false,
    avatarUrl: null,
    avatarSource: null,
    locale: null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  await insertContactRow(tx, row);
  await appendEvent(tx, contactCreated, {
    workspaceId: ctx.workspaceId,
    data: {
      contact: await presentContact(tx, ports.get(contactTicketCounts), row, {
        ticketCount: 0,
        tags: [],
        fields: {},
        secondaryEmails: [],
      }),
    },
  });
  return row;
}

/**
 * Fills a visitor contact's empty email and name (never overwrites what is there); an email another
 * contact holds is left out. Appends `contact.updated` when something changed.
 */
export async function fillVisitorContact(
  tx: Tx,
  ctx: RequestContext,
  current: ContactRow,
  input: { email: string | null; name: string },
  now: string,
  ports: Ports,
): Promise<ContactRow> {
  const email =
    current.email === null && input.email && !(await emailTaken(tx, ctx.workspaceId, input.email, current.id))
      ? normalizeEmail(input.email, "body.email")
      : current.email;
  const name = current.name === "" && input.name.trim() ? input.name.trim().slice(0, 200) : current.name;
  if (email === current.email && name === current.name) return current;
  const row = one(
    await tx.update(contacts).set({ email, name, updatedAt: now }).where(eq(contacts.id, current.id)).returning(),
  )!;
  await appendEvent(tx, contactUpdated, {
    workspaceId: ctx.workspaceId,
    data: { contact: await presentContact(tx, ports.get(contactTicketCounts), row) },
  });
  return row;
}
