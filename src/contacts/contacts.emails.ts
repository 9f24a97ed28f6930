import { first } from "../db/store";
import { and, asc, eq, inArray, isNull, ne } from "drizzle-orm";
import type { Queryable, Tx } from "../db/database";
import { DeskError } from "../lib/errors";
import { contactEmails, contacts } from "./contacts.table";
import { normalizeEmail } from "./contacts.text";

/** Addresses one contact may hold, its first included: bounds every list and each merge. */
export const MAX_CONTACT_EMAILS = 20;

/** 409 naming where the taken address was given, so a form can mark the field. */
export const emailTakenAt = (location: string) =>
  new DeskError(409, "conflict", "Another contact has this email.", [
    { location, message: "another contact has this email" },
  ]);

/** Each contact's addresses after its first, in order (contacts with none are absent). */
export async function secondaryEmailsOf(db: Queryable, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({ contactId: contactEmails.contactId, email: contactEmails.email })
    .from(contactEmails)
    .where(inArray(contactEmails.contactId, ids))
    .orderBy(asc(contactEmails.contactId), asc(contactEmails.position));
  for (const row of rows) {
    const list = out.get(row.contactId);
    if (list) list.push(row.email);
    else out.set(row.contactId, [row.email]);
  }
  return out;
}

/** The live contact holding `email` (already normalised) as a secondary address, if any. */
export async function contactIdBySecondaryEmail(
  db: Queryable,
  workspaceId: string,
  email: string,
): Promise<string | undefined> {
  return first(
    await db
      .select({ id: contactEmails.contactId })
      .from(contactEmails)
      .where(and(eq(contactEmails.workspaceId, workspaceId), eq(contactEmails.email, email)))
      .limit(1),
  )?.id;
}

/** The live contact other than `exceptId` holding `email` in any position, if any. */
export async function holderOfEmail(
  db: Queryable,
  workspaceId: string,
  email: string,
  exceptId: string | null,
): Promise<string | undefined> {
  const primary = first(
    await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(
        and(
          eq(contacts.workspaceId, workspaceId),
          eq(contacts.email, email),
          isNull(contacts.deletedAt),
          exceptId ? ne(contacts.id, exceptId) : undefined,
        ),
      )
      .limit(1),
  )?.id;
  if (primary) return primary;
  const secondary = await contactIdBySecondaryEmail(db, workspaceId, email);
  return secondary && secondary !== exceptId ? secondary : undefined;
}

/**
 * Normalises a full address list (first = primary): 422 at `location.<i>` for a bad or repeated
 * address or past the bound, 409 at `location.<i>` for one another live contact holds.
 */
export async function checkEmailList(
  db: Queryable,
  workspaceId: string,
  contactId: string | null,
  raw: string[],
  location: string,
): Promise<string[]> {
  if (raw.length > MAX_CONTACT_EMAILS)
    throw new DeskError(422, "validation_failed", `A contact has at most ${MAX_CONTACT_EMAILS} emails.`, [
      { location, message: `at most ${MAX_CONTACT_EMAILS} emails` },
    ]);
  const out: string[] = [];
  for (const [i, value] of raw.entries()) {
    const email = normalizeEmail(value, `${location}.${i}`);
    if (out.includes(email))
      throw new DeskError(422, "validation_failed", "An email is listed twice.", [
        { location: `${location}.${i}`, message: "listed twice" },
      ]);
    if (await holderOfEmail(db, workspaceId, email, contactId)) throw emailTakenAt(`${location}.${i}`);
    out.push(email);
  }
  return out;
}

/** Replaces a contact's secondary addresses (already checked) with `emails`, in order. */
export async function replaceSecondaryEmails(
  tx: Tx,
  workspaceId: string,
  contactId: string,
  emails: string[],
  now: string,
): Promise<void> {
  await tx.delete(contactEmails).where(eq(contactEmails.contactId, contactId));
  if (emails.length === 0) return;
  await tx
    .insert(contactEmails)
    .values(emails.map((email, position) => ({ workspaceId, email, contactId, position, createdAt: now })));
}

/** Drops a contact's secondary addresses (on delete or merge), freeing them for others. */
export const clearSecondaryEmails = async (tx: Tx, contactId: string): Promise<void> => {
  await tx.delete(contactEmails).where(eq(contactEmails.contactId, contactId));
};
