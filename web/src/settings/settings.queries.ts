import { defineResource } from "../lib/realtime/invalidation";

/** Resources only the settings screens read (their lists come from `useCrud(key, path)`). */
export const mailboxesKeys = { list: ["mailboxes"] as const };
export const webhooksKeys = { list: ["webhooks"] as const };
export const slaPoliciesKeys = { list: ["sla-policies"] as const };
export const automationsKeys = { list: ["automations"] as const };

export const mailboxesResource = defineResource({
  name: "mailboxes",
  keys: mailboxesKeys,
  events: [{ on: ["mailbox.*"], invalidate: () => [mailboxesKeys.list] }],
});

export const webhooksResource = defineResource({
  name: "webhooks",
  keys: webhooksKeys,
  events: [{ on: ["webhook.*"], invalidate: () => [webhooksKeys.list] }],
});

export const slaPoliciesResource = defineResource({
  name: "sla-policies",
  keys: slaPoliciesKeys,
  events: [{ on: ["sla_policy.*"], invalidate: () => [slaPoliciesKeys.list] }],
});
export const automationsResource = defineResource({
  name: "automations",
  keys: automationsKeys,
  events: [{ on: ["automation.*"], invalidate: () => [automationsKeys.list] }],
});
