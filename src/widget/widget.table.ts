import { deskTable } from "../db/schema-kit";
import {
  chatEmailConfirmationsTable,
  chatReplyMarksTable,
  visitorSessionsTable,
  widgetSettingsTable,
  widgetUploadsTable,
} from "./widget.definition";

/** The builds of widget.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const widgetSettings = deskTable("widget_settings", widgetSettingsTable);
export const visitorSessions = deskTable("visitor_sessions", visitorSessionsTable);
export const widgetUploads = deskTable("widget_uploads", widgetUploadsTable);
export const chatReplyMarks = deskTable("chat_reply_marks", chatReplyMarksTable);
export const chatEmailConfirmations = deskTable("chat_email_confirmations", chatEmailConfirmationsTable);
