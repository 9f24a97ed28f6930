import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements, inListSql, listParam } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { preparedFor } from "../db/sqlite/prepared";
import type { ContactRow } from "./contacts.table";

/** contacts as SQLite returns it: JSON as text, flags as 0/1. */
type RawContact = Omit<ContactRow, "custom" | "blocked"> & { custom: string; blocked: number };
type RefRow = { id: string; email: string | null; name: string; avatarUrl: string | null };
type CompanyRow = { id: string; name: string; domain: string | null; workspaceId: string };

const CONTACT = `id, workspace_id AS workspaceId, email, name, phone, notes, company_id AS companyId, external_id AS externalId, custom,
  blocked, avatar_url AS avatarUrl, avatar_source AS avatarSource, locale, created_at AS createdAt, updated_at AS updatedAt, deleted_at AS deletedAt`;
const REF = "id, email, name, avatar_url AS avatarUrl";

const sqliteStatements = preparedFor((sqlite) => ({
  liveByEmail: sqlite.query<RawContact, [string, string]>(
    `SELECT ${CONTACT} FROM contacts WHERE workspace_id = +? AND email = +? AND deleted_at IS NULL`,
  ),
  insert: sqlite.query<unknown, InsertParams<number>>(
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

/**
 * The contact reads and writes of the ticket and mail write paths (prepared once per connection on
 * SQLite). The PostgreSQL twin runs the same SQL with camelCase aliases quoted, turns `custom`
 * (`jsonb`) back into JSON text and reads `blocked` as 0/1, so both engines hand the same rows to
 * `contactOf`.
 */
type ContactStatements = {
  liveByEmail(workspaceId: string, email: string): Promise<RawContact | null>;
  insert(row: ContactRow): Promise<void>;
  rename(name: string, updatedAt: string, id: string): Promise<void>;
  refOne(id: string): Promise<RefRow | null>;
  liveRef(id: string, workspaceId: string): Promise<RefRow | null>;
  refMany(ids: string): Promise<RefRow[]>;
  companies(ids: string): Promise<CompanyRow[]>;
};

/**
 * A `jsonb` value as Bun's client answers it (parsed) back to the JSON text SQLite answers. A
 * string is already that text: a jsonb string holding JSON, as drizzle's jsonb column stored values
 * through Bun's client before the schema kit passed them through (src/db/schema-kit.ts).
 */
const jsonTextOf = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

const CONTACT_PG = `id, workspace_id AS "workspaceId", email, name, phone, notes, company_id AS "companyId", external_id AS "externalId",
  custom, blocked::int AS blocked, avatar_url AS "avatarUrl", avatar_source AS "avatarSource", locale,
  created_at AS "createdAt", updated_at AS "updatedAt", deleted_at AS "deletedAt"`;
const REF_PG = 'id, email, name, avatar_url AS "avatarUrl"';

type InsertParams<Flag> = [
  string,
  string,
  string | null,
  string,
  string,
  string,
  string | null,
  string | null,
  string,
  Flag,
  string | null,
  string | null,
  string | null,
  string,
  string,
];

/** The insert's parameters, the flag as the engine stores it (SQLite 0/1, PostgreSQL boolean). */
const insertParams = <Flag>(row: ContactRow, blocked: Flag): InsertParams<Flag> => [
  row.id,
  row.workspaceId,
  row.email,
  row.name,
  row.phone,
  row.notes,
  row.companyId,
  row.externalId,
  JSON.stringify(row.custom),
  blocked,
  row.avatarUrl,
  row.avatarSource,
  row.locale,
  row.createdAt,
  row.updatedAt,
];

const contactStatements = dialectStatements<ContactStatements>({
  sqlite: (db) => {
    const s = sqliteStatements(db);
    return {
      liveByEmail: async (workspaceId, email) => s.liveByEmail.get(workspaceId, email),
      insert: async (row) => {
        s.insert.run(...insertParams(row, row.blocked ? 1 : 0));
      },
      rename: async (name, updatedAt, id) => {
        s.rename.run(name, updatedAt, id);
      },
      refOne: async (id) => s.refOne.get(id),
      liveRef: async (id, workspaceId) => s.liveRef.get(id, workspaceId),
      refMany: async (ids) => s.refMany.all(ids),
      companies: async (ids) => s.companies.all(ids),
    };
  },
  postgres: (db) => {
    const liveByEmail = postgresQuery<RawContact, [string, string]>(
      db,
      `SELECT ${CONTACT_PG} FROM contacts WHERE workspace_id = ? AND email = ? AND deleted_at IS NULL`,
    );
    const insert = postgresQuery<unknown, InsertParams<boolean>>(
      db,
      `INSERT INTO contacts (id, workspace_id, email, name, phone, notes, company_id, external_id, custom, blocked, avatar_url, avatar_source, locale, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::text::jsonb, ?, ?, ?, ?, ?, ?)`,
    );
    const rename = postgresQuery<unknown, [string, string, string]>(
      db,
      "UPDATE contacts SET name = ?, updated_at = ? WHERE id = ?",
    );
    const refOne = postgresQuery<RefRow, [string]>(db, `SELECT ${REF_PG} FROM contacts WHERE id = ?`);
    const liveRef = postgresQuery<RefRow, [string, string]>(
      db,
      `SELECT ${REF_PG} FROM contacts WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL`,
    );
    const refMany = postgresQuery<RefRow, [string]>(
      db,
      `SELECT ${REF_PG} FROM contacts WHERE ${inListSql("id", "postgres")}`,
    );
    const companies = postgresQuery<CompanyRow, [string]>(
      db,
      `SELECT id, name, domain, workspace_id AS "workspaceId" FROM companies WHERE ${inListSql("id", "postgres")} AND deleted_at IS NULL`,
    );
    return {
      liveByEmail: async (workspaceId, email) => {
        const raw = await liveByEmail.get(workspaceId, email);
        return raw ? { ...raw, custom: jsonTextOf(raw.custom) } : null;
      },
      insert: (row) => insert.run(...insertParams(row, row.blocked)),
      rename: (name, updatedAt, id) => rename.run(name, updatedAt, id),
      refOne: (id) => refOne.get(id),
      liveRef: (id, workspaceId) => liveRef.get(id, workspaceId),
      refMany: (ids) => refMany.all(ids),
      companies: (ids) => companies.all(ids),
    };
  },
});

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
  const raw = await contactStatements(db).liveByEmail(workspaceId, email);
  return raw ? contactOf(raw) : undefined;
}

/** Inserts a complete row (every column given, so the row in hand is exactly what is stored). */
export async function insertContactRow(db: Queryable, row: ContactRow): Promise<void> {
  await contactStatements(db).insert(row);
}

export const renameContactRow = async (db: Queryable, id: string, name: string, updatedAt: string): Promise<void> => {
  await contactStatements(db).rename(name, updatedAt, id);
};

export async function contactRefRows(db: Queryable, ids: string[]): Promise<RefRow[]> {
  const s = contactStatements(db);
  if (ids.length === 1) {
    const row = await s.refOne(ids[0]!);
    return row ? [row] : [];
  }
  return await s.refMany(listParam(ids));
}

/** A live contact of the workspace as a ticket refers to it (the ticket write path: prepared once). */
export const liveContactRef = async (
  db: Queryable,
  workspaceId: string,
  contactId: string,
): Promise<RefRow | undefined> => (await contactStatements(db).liveRef(contactId, workspaceId)) ?? undefined;

export const liveCompanyRows = async (db: Queryable, ids: string[]): Promise<CompanyRow[]> =>
  await contactStatements(db).companies(listParam(ids));

/**
 * SQL of the contacts' searches whose text differs by engine: SQLite's `CROSS JOIN … ON` (which
 * keeps the hits' order, SQLite's planner would otherwise walk every contact of the workspace) is
 * a plain `JOIN` on PostgreSQL, which has no `CROSS JOIN … ON`.
 */
type ContactSqlParts = {
  /** Joins `contacts c` on `on`, driven by the rows before it. */
  contactsJoinSql(on: SQL): SQL;
};

export const contactSqlParts = dialectStatements<ContactSqlParts>({
  sqlite: () => ({ contactsJoinSql: (on) => sql`CROSS JOIN contacts c ON ${on}` }),
  postgres: () => ({ contactsJoinSql: (on) => sql`JOIN contacts c ON ${on}` }),
});
