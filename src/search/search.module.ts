import { defineModule } from "../module";
import { searchRoutes } from "./search.routes";
import { registerSearchStaging } from "./search.staging";

export const searchModule = defineModule({
  name: "search",
  routes: (deps) => [searchRoutes(deps)],
  // Staged documents move into the FTS5 indexes before each commit.
  inTransaction: (deps) => registerSearchStaging(deps.db),
});
