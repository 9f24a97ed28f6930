import { defineModule } from "../module";
import { labelEvents } from "./labels.events";
import type { TagRenamed } from "./labels.service";
import { labelsRoutes } from "./labels.routes";

/**
 * `tagRenamed` rewrites what other features keep by label name (view filters, automations), each
 * in the label change's transaction; the registry wires them.
 */
export const labelsModule = (cascade: { tagRenamed: TagRenamed[] }) => {
  const tagRenamed: TagRenamed = (...args) => {
    for (const rename of cascade.tagRenamed) rename(...args);
  };
  return defineModule({ name: "labels", events: labelEvents, routes: (deps) => [labelsRoutes(deps, { tagRenamed })] });
};
