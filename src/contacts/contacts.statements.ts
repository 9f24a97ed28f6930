import type { Queryable } from "../db/database";
import { inListSql, listParam } from "../db/dialect";
import { preparedFor } from "../db/sqlite/prepared";
import type { ContactRow } from "./contacts.table";

/** contacts as SQLite returns it: JSON as text, flags as 0/1. */
type RawContact = Omit<ContactRow, "custom" | "blocked"> & { custom: string; blocked: number };
type RefRow = { id: string; email: string | null; name: string; avatarUrl: string | null };
type CompanyRow = { id: string; name: string; domain: string | null; workspaceId: string };

const CONTACT = `id, workspace_id AS workspaceId, email, name, phone, notes, company_id AS companyId, external_id AS externalId, custom,
  blocked, avatar_url AS avatarUrl, avatar_source AS avatarSource, locale, created_at AS createdAt, updated_at AS updatedAt, deleted_at AS deletedAt`;
const REF = "id, email, name, avatar_url AS avatarUrl";

const statements = preparedFor((sqlite) => ({
  liveByEmail: sqlite.query<RawContact, [string, string]>(
    `SELECT ${CONTACT} FROM contacts WHERE workspace_id = +? AND email = +? AND deleted_at IS NULL`,
  ),
  insert: sqlite.query<
    unknown,
    [
      string,
      string,
      string | null,
      string,
      string,
      string,
      string | null,
      string | null,
      string,
      number,
      string | null,
      string | null,
      string | null,
      string,
      string,
    ]
  >(
    `INSERT INTO contacts (id, workspace_id, email, name, phone, notes, company_id, external_id, custom, blocked, avatar_url, avatar_source, locale, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  rename: sqlite.query<unknown, [string, string, string]>("UPDATE contacts SET name = ?, updated_at = ? WHERE id = +?"),
  refOne: sqlite.query<RefRow, [string]>(`SELECT ${REF} FROM contacts WHERE id = +?`),
  liveRef: sqlite.query<RefRow, [string, string]>(
    `SELECT ${REF} FROM contacts WHERE id = +? AND workspace_id = +? AND deleted_at IS NULL`,
  ),
  refMany: sqlite.query<RefRow, [string]>(`SELECT ${REF} FROM contacts WHERE ${inListSql("id")}`),
  companies: sqlite.query<CompanyRow, [string]>(
    `SELECT id, name, domain, workspace_id AS workspaceId FROM companies WHERE ${inListSql("id")} AND deleted_at IS NULL`,
  ),
}));

const contactOf = (raw: RawContact): ContactRow => ({
  ...raw,
  custom: JSON.parse(raw.custom) as Record<string, unknown>,
  blocked: raw.blocked === 1,
});

export async function liveContactByEmail(
  db: Queryable,
  workspaceId: string,
  email: string,
): Promise<ContactRow | undefined> {
  const raw = statements(db).liveByEmail.get(workspaceId, email);
  return raw ? contactOf(raw) : undefined;
}

/** Inserts a complete row (every column given, so the row in hand is exactly what is stored). */
export async function insertContactRow(db: Queryable, row: ContactRow): Promise<void> {
  statements(db).insert.run(
    row.id,
    row.workspaceId,
    row.email,
    row.name,
    row.phone,
    row.notes,
    row.companyId,
    row.externalId,
    JSON.stringify(row.custom),
    row.blocked ? 1 : 0,
    row.avatarUrl,
    row.avatarSource,
    row.locale,
    row.createdAt,
    row.updatedAt,
  );
}

export const renameContactRow = async (db: Queryable, id: string, name: string, updatedAt: string): Promise<void> => {
  statements(db).rename.run(name, updatedAt, id);
};

export async function contactRefRows(db: Queryable, ids: string[]): Promise<RefRow[]> {
  const s = statements(db);
  if (ids.length === 1) {
    const row = s.refOne.get(ids[0]!);
    return row ? [row] : [];
  }
  return s.refMany.all(listParam(ids));
}

/** A live contact of the workspace as a ticket refers to it (the ticket write path: prepared once). */
export const liveContactRef = async (
  db: Queryable,
  workspaceId: string,
  contactId: string,
): Promise<RefRow | undefined> => statements(db).liveRef.get(contactId, workspaceId) ?? undefined;

export const liveCompanyRows = async (db: Queryable, ids: string[]): Promise<CompanyRow[]> =>
  statements(db).companies.all(listParam(ids));
