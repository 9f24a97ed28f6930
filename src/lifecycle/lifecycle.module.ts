import { defineModule } from "../module";
import { autoCloseJob } from "./lifecycle.jobs";

/** What happens to tickets with time alone: solved tickets close after the workspace's `auto_close_days`. */
export const lifecycleModule = defineModule({
  name: "lifecycle",
  jobs: [autoCloseJob],
});
