import { defineModule } from "../module";
import { membersRoutes } from "./members.routes";

export const membersModule = defineModule({ name: "members", routes: (deps) => [membersRoutes(deps)] });
