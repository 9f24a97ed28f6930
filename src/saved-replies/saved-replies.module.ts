import { defineModule } from "../module";
import { savedRepliesRoutes } from "./saved-replies.routes";

export const savedRepliesModule = defineModule({
  name: "saved-replies",
  routes: (deps) => [savedRepliesRoutes(deps)],
});
