import { defineModule } from "../module";
import { notifyAssigned, notifyFollowersOfBreach, notifyOnMessage } from "./notifications.consumers";
import { notificationCreated } from "./notifications.events";
import { followOnMention } from "./notifications.follow";
import { notificationDigestJob, notificationEmailJob } from "./notifications.jobs";
import { notificationsRoutes } from "./notifications.routes";

export const notificationsModule = defineModule({
  name: "notifications",
  events: [notificationCreated],
  routes: (deps) => [notificationsRoutes(deps)],
  jobs: [notificationEmailJob, notificationDigestJob],
  consumers: [notifyAssigned, notifyOnMessage, notifyFollowersOfBreach, followOnMention],
});
