import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, json, timestamp, updatedAt, workspaceId } from "../db/columns";

export const contacts = sqliteTable(
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
