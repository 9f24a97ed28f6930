/**
 * The PostgreSQL builds of widget.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./widget.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import {
  chatEmailConfirmationsTable,
  chatReplyMarksTable,
  visitorSessionsTable,
  widgetSettingsTable,
  widgetUploadsTable,
} from "./widget.definition";

export const widgetSettings = pgTable("widget_settings", widgetSettingsTable);
export const visitorSessions = pgTable("visitor_sessions", visitorSessionsTable);
export const widgetUploads = pgTable("widget_uploads", widgetUploadsTable);
export const chatReplyMarks = pgTable("chat_reply_marks", chatReplyMarksTable);
export const chatEmailConfirmations = pgTable("chat_email_confirmations", chatEmailConfirmationsTable);
