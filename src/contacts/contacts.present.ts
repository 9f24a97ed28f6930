import { and, inArray, isNull, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { fieldValuesOf } from "../custom-fields/fields.apply";
import { labelsOf } from "../labels/labels.apply";
import { companies } from "../companies/companies.table";
import type { contacts } from "./contacts.table";

export type ContactRow = typeof contacts.$inferSelect;
export type ContactRef = { id: string; email: string | null; name: string; avatar_url: string | null };

export const presentContactRef = (row: Pick<ContactRow, "id" | "email" | "name" | "avatarUrl">): ContactRef => ({
  id: row.id,
  email: row.email,
  name: row.name,
  avatar_url: row.avatarUrl ?? null,
});

/** Open (not deleted) tickets per contact, from the tickets feature's table. */
function ticketCounts(db: Queryable, ids: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = db.all<{ contact_id: string; n: number }>(
      sql`SELECT contact_id, count(*) AS n FROM tickets WHERE contact_id IN (${sql.join(chunk.map((id) => sql`${id}`), sql`, `)}) AND deleted_at IS NULL GROUP BY contact_id`,
    );
    for (const row of rows) out.set(row.contact_id, row.n);
  }
  return out;
}

/** Contacts as the API shows them, with labels, fields, company and ticket counts fetched in batches. */
export function presentContacts(db: Queryable, rows: ContactRow[]) {
  const ids = rows.map((r) => r.id);
  const tagsById = labelsOf(db, "contacts", ids);
  const fieldsById = fieldValuesOf(db, "contact", ids);
  const counts = ids.length ? ticketCounts(db, ids) : new Map<string, number>();
  const companyIds = [...new Set(rows.map((r) => r.companyId).filter((id): id is string => id !== null))];
  const companyById = new Map(
    companyIds.length
      ? db
          .select({ id: companies.id, name: companies.name, domain: companies.domain, workspaceId: companies.workspaceId })
          .from(companies)
          .where(and(inArray(companies.id, companyIds), isNull(companies.deletedAt)))
          .all()
          .map((c) => [c.id, c])
      : [],
  );
  return rows.map((row) => {
    const company = row.companyId ? companyById.get(row.companyId) : undefined;
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      phone: row.phone,
      notes: row.notes,
      avatar_url: row.avatarUrl ?? null,
      avatar_source: row.avatarSource ?? null,
      company: company && company.workspaceId === row.workspaceId ? { id: company.id, name: company.name, domain: company.domain } : null,
      external_id: row.externalId,
      custom: row.custom ?? {},
      tags: tagsById.get(row.id) ?? [],
      fields: fieldsById.get(row.id) ?? {},
      blocked: row.blocked,
      ticket_count: counts.get(row.id) ?? 0,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    };
  });
}

export const presentContact = (db: Queryable, row: ContactRow) => presentContacts(db, [row])[0]!;
export type ContactJson = ReturnType<typeof presentContact>;
