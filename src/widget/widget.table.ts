import { sqliteTable } from "../db/schema-kit";
import {
  chatEmailConfirmationsTable,
  chatReplyMarksTable,
  visitorSessionsTable,
  widgetSettingsTable,
  widgetUploadsTable,
} from "./widget.definition";

/** The SQLite builds of widget.definition.ts: what every query, type and migration uses. */
export const widgetSettings = sqliteTable("widget_settings", widgetSettingsTable);
export const visitorSessions = sqliteTable("visitor_sessions", visitorSessionsTable);
export const widgetUploads = sqliteTable("widget_uploads", widgetUploadsTable);
export const chatReplyMarks = sqliteTable("chat_reply_marks", chatReplyMarksTable);
export const chatEmailConfirmations = sqliteTable("chat_email_confirmations", chatEmailConfirmationsTable);
