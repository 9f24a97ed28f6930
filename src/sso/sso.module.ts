import { defineModule } from "../module";
import { ssoLinkMailJob } from "./sso.mail";
import { ssoRoutes } from "./sso.routes";

export const ssoModule = defineModule({ name: "sso", routes: (deps) => [ssoRoutes(deps)], jobs: [ssoLinkMailJob] });
