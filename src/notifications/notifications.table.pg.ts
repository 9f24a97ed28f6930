/**
 * The PostgreSQL builds of notifications.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./notifications.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { notificationPreferencesTable, notificationsTable } from "./notifications.definition";

export { EMAIL_PREFERENCES, type EmailPreference, type NotificationTicketRef } from "./notifications.definition";

export const notifications = pgTable("notifications", notificationsTable);
export const notificationPreferences = pgTable("notification_preferences", notificationPreferencesTable);
