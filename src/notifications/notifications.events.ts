import { z } from "zod";
import { defineEvent } from "../events/define";
import { NotificationSchema } from "./notifications.schemas";

export const notificationCreated = defineEvent("notification.created", z.object({ notification: NotificationSchema }), {
  readScope: "tickets:read",
  description: "Someone was notified (published on `user:<uid>`).",
});
