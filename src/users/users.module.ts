import { defineModule } from "../module";
import { passwordResetMailJob } from "./password-resets.mail";
import { passwordResetsRoutes } from "./password-resets.routes";

export const usersModule = defineModule({
  name: "users",
  routes: (deps) => [passwordResetsRoutes(deps)],
  jobs: [passwordResetMailJob],
});
