import { defineModule } from "../module";
import { labelEvents } from "./labels.events";
import { tagRenamedInAutomations, tagRenamedInViews } from "./labels.public";
import { labelCreationSetting } from "./labels.ports";
import type { TagRenamed } from "./labels.service";
import { labelsRoutes } from "./labels.routes";

/** A label's new name is followed, in the label change's transaction, by views and automations (its ports). */
export const labelsModule = defineModule({
  name: "labels",
  events: labelEvents,
  routes: (deps) => {
    const followers = [deps.ports.get(tagRenamedInViews), deps.ports.get(tagRenamedInAutomations)];
    const tagRenamed: TagRenamed = async (...args) => {
      for (const rename of followers) await rename(...args);
    };
    return [labelsRoutes(deps, { tagRenamed })];
  },
  ports: [tagRenamedInViews, tagRenamedInAutomations, labelCreationSetting],
});
