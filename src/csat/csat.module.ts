import { defineModule } from "../module";
import { csatOnSolve } from "./csat.consumers";
import { csatMailJob } from "./csat.jobs";
import { csatPages } from "./csat.page";
import { csatRoutes } from "./csat.routes";

/** Customer satisfaction: the rating request on solve, its mail, the public rating routes and page. */
export const csatModule = defineModule({
  name: "csat",
  routes: (deps) => [csatRoutes(deps)],
  pages: (deps) => csatPages(deps),
  jobs: [csatMailJob],
  consumers: [csatOnSolve],
});
