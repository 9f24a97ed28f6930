import { deskTable } from "../db/schema-kit";
import { notificationPreferencesTable, notificationsTable } from "./notifications.definition";

export { EMAIL_PREFERENCES, type EmailPreference, type NotificationTicketRef } from "./notifications.definition";

/** The builds of notifications.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const notifications = deskTable("notifications", notificationsTable);
export const notificationPreferences = deskTable("notification_preferences", notificationPreferencesTable);
