import type { Queryable } from "../db/database";
import { fieldValuesOf } from "../custom-fields/custom-fields.public";
import { labelsOf, type TagRef } from "../labels/labels.public";
import { secondaryEmailsOf } from "./contacts.emails";
import { liveCompanyRows } from "./contacts.statements";
import type { ContactTicketCounts } from "./contacts.ticket-counts";
import type { ContactRow } from "./contacts.table";

export type { ContactRow };
export type ContactRef = { id: string; email: string | null; name: string; avatar_url: string | null };

export const presentContactRef = (row: Pick<ContactRow, "id" | "email" | "name" | "avatarUrl">): ContactRef => ({
  id: row.id,
  email: row.email,
  name: row.name,
  avatar_url: row.avatarUrl ?? null,
});

/** Live (not deleted) tickets per contact, from the tickets feature's table. */
async function ticketCounts(
  db: Queryable,
  countRows: ContactTicketCounts,
  rows: ContactRow[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const idsByWorkspace = new Map<string, string[]>();
  for (const row of rows) {
    const ids = idsByWorkspace.get(row.workspaceId);
    if (ids) ids.push(row.id);
    else idsByWorkspace.set(row.workspaceId, [row.id]);
  }
  for (const [workspaceId, ids] of idsByWorkspace)
    for (const count of await countRows(db, workspaceId, ids)) out.set(count.contactId, count.n);
  return out;
}

/** What a caller that just wrote a contact already knows: each given member skips its query. */
export type KnownContactParts = {
  ticketCount?: number;
  tags?: TagRef[];
  fields?: Record<string, unknown>;
  secondaryEmails?: string[];
};

/**
 * Contacts as the API shows them, with labels, fields, company and ticket counts fetched in
 * batches (one statement each, whatever the number of rows). `known` (for a single row) gives
 * parts the caller already has: a contact it just created has no tickets, labels or fields.
 */
export async function presentContacts(
  db: Queryable,
  countTickets: ContactTicketCounts,
  rows: ContactRow[],
  known: KnownContactParts = {},
) {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const single = rows.length === 1;
  const tagsById = single && known.tags ? new Map([[ids[0]!, known.tags]]) : await labelsOf(db, "contacts", ids);
  const fieldsById =
    single && known.fields ? new Map([[ids[0]!, known.fields]]) : await fieldValuesOf(db, "contact", ids);
  const counts =
    single && known.ticketCount !== undefined
      ? new Map([[ids[0]!, known.ticketCount]])
      : await ticketCounts(db, countTickets, rows);
  const secondaryById =
    single && known.secondaryEmails ? new Map([[ids[0]!, known.secondaryEmails]]) : await secondaryEmailsOf(db, ids);
  const companyIds = [...new Set(rows.map((r) => r.companyId).filter((id): id is string => id !== null))];
  const companyById = new Map(companyIds.length ? (await liveCompanyRows(db, companyIds)).map((c) => [c.id, c]) : []);
  return rows.map((row) => {
    const company = row.companyId ? companyById.get(row.companyId) : undefined;
    return {
      id: row.id,
      email: row.email,
      emails: row.email ? [row.email, ...(secondaryById.get(row.id) ?? [])] : [...(secondaryById.get(row.id) ?? [])],
      name: row.name,
      phone: row.phone,
      notes: row.notes,
      avatar_url: row.avatarUrl ?? null,
      avatar_source: row.avatarSource ?? null,
      company:
        company && company.workspaceId === row.workspaceId
          ? { id: company.id, name: company.name, domain: company.domain }
          : null,
      external_id: row.externalId,
      custom: row.custom ?? {},
      tags: tagsById.get(row.id) ?? [],
      fields: fieldsById.get(row.id) ?? {},
      blocked: row.blocked,
      locale: row.locale ?? null,
      ticket_count: counts.get(row.id) ?? 0,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    };
  });
}

/** One contact as the API shows it; `known` skips the look-ups of parts the caller already has. */
export const presentContact = async (
  db: Queryable,
  countTickets: ContactTicketCounts,
  row: ContactRow,
  known?: KnownContactParts,
) => (await presentContacts(db, countTickets, [row], known))[0]!;
export type ContactJson = Awaited<ReturnType<typeof presentContact>>;
