import { defineModule } from "../module";
import { macroEvents } from "./macros.events";
import { macrosRoutes } from "./macros.routes";

/** Macros: saved sets of automation actions a person applies to a ticket in one click. */
export const macrosModule = defineModule({
  name: "macros",
  events: macroEvents,
  routes: (deps) => [macrosRoutes(deps)],
});
