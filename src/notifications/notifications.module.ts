import { defineModule } from "../module";
import { notificationCreated } from "./notifications.events";

export const notificationsModule = defineModule({
  name: "notifications",
  events: [notificationCreated],
});
