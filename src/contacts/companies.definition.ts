import { sql } from "drizzle-orm";
import {
  createdAt,
  id,
  index,
  json,
  table,
  text,
  timestamp,
  uniqueIndex,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): companies.table.ts builds it for
// SQLite (queries, types, migrations), companies.table.pg.ts for PostgreSQL.

export const companiesTable = table(
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
