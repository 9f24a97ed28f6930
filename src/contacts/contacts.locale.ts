import { first } from "../db/store";
import { and, eq, isNull } from "drizzle-orm";
import type { Queryable, Tx } from "../db/database";
import { appendEvent } from "../events/append";
import { canonicalLocaleTag } from "../i18n/locales";
import type { Ports } from "../lib/ports";
import { contactIdBySecondaryEmail } from "./contacts.emails";
import { contactUpdated } from "./contacts.events";
import { presentContact } from "./contacts.present";
import { liveContactByEmail } from "./contacts.statements";
import { contacts } from "./contacts.table";
import { contactTicketCounts } from "./contacts.ticket-counts";

/**
 * Records a language learnt along the way (the widget's, the portal's or the contact form's page
 * language, an inbound mail's): only while the contact has none, so an agent's choice and the first
 * thing learnt both stand. Answers whether it set it; `contact.updated` follows when it does.
 */
export async function setContactLocaleIfUnset(
  tx: Tx,
  workspaceId: string,
  contactId: string,
  tag: string | null | undefined,
  now: string,
  ports: Ports,
): Promise<boolean> {
  const locale = tag ? canonicalLocaleTag(tag) : null;
  if (!locale) return false;
  // The condition on the column itself keeps a concurrent agent's choice: the first writer wins.
  const row = first(
    await tx
      .update(contacts)
      .set({ locale, updatedAt: now })
      .where(
        and(
          eq(contacts.workspaceId, workspaceId),
          eq(contacts.id, contactId),
          isNull(contacts.locale),
          isNull(contacts.deletedAt),
        ),
      )
      .returning(),
  );
  if (!row) return false;
  await appendEvent(tx, contactUpdated, {
    workspaceId,
    data: { contact: await presentContact(tx, ports.get(contactTicketCounts), row) },
  });
  return true;
}

/** The language of the live contact holding `email` (any of its addresses), null when none or unset. */
export async function contactLocaleByEmail(db: Queryable, workspaceId: string, email: string): Promise<string | null> {
  const lower = email.trim().toLowerCase();
  const id =
    (await liveContactByEmail(db, workspaceId, lower))?.id ?? (await contactIdBySecondaryEmail(db, workspaceId, lower));
  return id ? ((await findContactLocale(db, workspaceId, id)) ?? null) : null;
}

const findContactLocale = async (db: Queryable, workspaceId: string, id: string) =>
  first(
    await db
      .select({ locale: contacts.locale })
      .from(contacts)
      .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, id), isNull(contacts.deletedAt)))
      .limit(1),
  )?.locale;
