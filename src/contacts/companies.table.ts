import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, id, json, timestamp, updatedAt, workspaceId } from "../db/columns";

export const companies = sqliteTable(
  "companies",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    /** Lowercase host name, unique per workspace among live companies. */
    domain: text("domain"),
    notes: text("notes").notNull().default(""),
    custom: json<Record<string, unknown>>("custom").notNull().default({}),
    avatarUrl: text("avatar_url"),
    avatarSource: text("avatar_source"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp("deleted_at"),
  },
  (t) => [
    uniqueIndex("companies_domain_unique")
      .on(t.workspaceId, t.domain)
      .where(sql`domain IS NOT NULL AND deleted_at IS NULL`),
    index("companies_workspace_idx").on(t.workspaceId, t.id),
    index("companies_name_idx").on(t.workspaceId, t.name),
  ],
);
