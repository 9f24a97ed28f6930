import { sql } from "drizzle-orm";
import {
  createdAt,
  flag,
  id,
  index,
  integer,
  json,
  primaryKey,
  table,
  text,
  timestamp,
  uniqueIndex,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): contacts.table.ts builds it for
// SQLite (queries, types, migrations), contacts.table.pg.ts for PostgreSQL.

export const contactsTable = table(
  "contacts",
  {
    id: id(),
    workspaceId: workspaceId(),
    /** Stored lowercase; unique per workspace among live contacts. */
    email: text("email"),
    name: text("name").notNull().default(""),
    phone: text("phone").notNull().default(""),
    notes: text("notes").notNull().default(""),
    companyId: text("company_id"),
    externalId: text("external_id"),
    custom: json<Record<string, unknown>>("custom").notNull().default({}),
    blocked: flag("blocked"),
    avatarUrl: text("avatar_url"),
    avatarSource: text("avatar_source"),
    /** BCP 47, canonical (`de`, `pt-BR`): the language Desk writes to this contact in; null until known. */
    locale: text("locale"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp("deleted_at"),
  },
  (t) => [
    uniqueIndex("contacts_email_unique")
      .on(t.workspaceId, t.email)
      .where(sql`email IS NOT NULL AND deleted_at IS NULL`),
    uniqueIndex("contacts_external_id_unique")
      .on(t.workspaceId, t.externalId)
      .where(sql`external_id IS NOT NULL AND deleted_at IS NULL`),
    index("contacts_workspace_idx").on(t.workspaceId, t.id),
    index("contacts_company_idx").on(t.companyId),
    index("contacts_name_idx").on(t.workspaceId, t.name),
  ],
);

/**
 * A contact's addresses after its first (`contacts.email`), in the order the agent gave them.
 * One address belongs to one live contact of a workspace: the primary key covers these rows, and
 * the service checks `contacts.email` too (a deleted contact's rows are removed with it).
 */
export const contactEmailsTable = table(
  "contact_emails",
  {
    workspaceId: workspaceId(),
    /** Stored lowercase, like contacts.email. */
    email: text("email").notNull(),
    contactId: text("contact_id").notNull(),
    position: integer("position").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey(t.workspaceId, t.email), index("contact_emails_contact_idx").on(t.contactId, t.position)],
);
