/**
 * The PostgreSQL builds of attachments.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./attachments.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { attachmentsTable } from "./attachments.definition";

export const attachments = pgTable("attachments", attachmentsTable);

export type AttachmentRow = typeof attachments.$inferSelect;
