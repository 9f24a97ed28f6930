import { defineModule } from "../module";
import { auditRoutes } from "./audit.routes";

export const auditModule = defineModule({ name: "audit", routes: (deps) => [auditRoutes(deps)] });
