import { defineResource } from "../../lib/realtime/invalidation";

export const automationsKeys = {
  list: ["automations"] as const,
  runs: (automationId: string) => ["automations", automationId, "runs"] as const,
};
export const triageKeys = { current: ["triage"] as const };

export const automationsResource = defineResource({
  name: "automations",
  keys: automationsKeys,
  events: [{ on: ["automation.*"], invalidate: () => [automationsKeys.list] }],
});
