import { findContact } from "../contacts/contacts.public";
import type { Queryable } from "../db/database";
import { customerLocale, type Locale } from "../i18n/locales";
import { definePort, type Ports } from "../lib/ports";

/** A workspace's settings (WorkspaceSettings), undefined for an unknown one. */
export type WorkspaceSettingsReader = (
  db: Queryable,
  workspaceId: string,
) => (Record<string, unknown> | undefined) | Promise<Record<string, unknown> | undefined>;

/** Provided by workspaces, which import outbound through inbound (a direct import back would close a cycle). */
export const workspaceSettingsReader = definePort<WorkspaceSettingsReader>("outbound.workspaceSettings");

/** The language of the text Desk itself adds to mail for a ticket's contact: theirs, else the workspace's. */
export async function localeForContact(
  deps: { db: Queryable; ports: Ports },
  workspaceId: string,
  contactId: string | null,
): Promise<Locale> {
  const contact = contactId ? await findContact(deps.db, workspaceId, contactId) : undefined;
  return customerLocale(contact?.locale, await deps.ports.get(workspaceSettingsReader)(deps.db, workspaceId));
}
