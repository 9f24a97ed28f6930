import { defineModule } from "../module";
import { messagesRoutes } from "./messages.routes";

export const messagesModule = defineModule({ name: "messages", routes: (deps) => [messagesRoutes(deps)] });
