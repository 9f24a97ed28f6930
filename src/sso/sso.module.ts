import { defineModule } from "../module";
import { ssoRoutes } from "./sso.routes";

export const ssoModule = defineModule({ name: "sso", routes: (deps) => [ssoRoutes(deps)] });
