import { sqliteTable } from "../db/schema-kit";
import { notificationPreferencesTable, notificationsTable } from "./notifications.definition";

export { EMAIL_PREFERENCES, type EmailPreference, type NotificationTicketRef } from "./notifications.definition";

/** The SQLite builds of notifications.definition.ts: what every query, type and migration uses. */
export const notifications = sqliteTable("notifications", notificationsTable);
export const notificationPreferences = sqliteTable("notification_preferences", notificationPreferencesTable);
