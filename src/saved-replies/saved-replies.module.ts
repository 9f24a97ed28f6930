import { defineModule } from "../module";
import { savedReplyEvents } from "./saved-replies.events";
import { savedRepliesRoutes } from "./saved-replies.routes";

export const savedRepliesModule = defineModule({
  name: "saved-replies",
  events: savedReplyEvents,
  routes: (deps) => [savedRepliesRoutes(deps)],
});
