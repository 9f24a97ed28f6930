import { defineResource } from "../../lib/realtime/invalidation";

export const slaPoliciesKeys = { list: ["sla-policies"] as const };
export const businessHoursKeys = { current: ["business-hours"] as const };

export const slaPoliciesResource = defineResource({
  name: "sla-policies",
  keys: slaPoliciesKeys,
  events: [{ on: ["sla_policy.*"], invalidate: () => [slaPoliciesKeys.list] }],
});
