import { defineModule } from "../module";
import { labelEvents } from "./labels.events";
import type { TagRenamed } from "./labels.service";
import { labelsRoutes } from "./labels.routes";

/** `tagRenamed` rewrites what other features keep by label name (view filters); the registry wires it. */
export const labelsModule = (cascade: { tagRenamed: TagRenamed }) =>
  defineModule({ name: "labels", events: labelEvents, routes: (deps) => [labelsRoutes(deps, cascade)] });
