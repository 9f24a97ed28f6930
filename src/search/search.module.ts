import { defineModule } from "../module";
import { registerSearchStaging } from "./search.staging";

export const searchModule = defineModule({
  name: "search",
  // Staged documents move into the FTS5 indexes before each commit.
  inTransaction: (deps) => registerSearchStaging(deps.db),
});
