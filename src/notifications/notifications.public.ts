// What other features use of notifications: telling a person something (in the caller's transaction).
export { notify, notificationsOf, type NewNotification } from "./notifications.service";
export { NOTIFICATION_TYPES, NotificationSchema, type NotificationType } from "./notifications.schemas";
export { withFollowers } from "./notifications.audience";
