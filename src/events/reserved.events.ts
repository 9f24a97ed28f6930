import { z } from "zod";
import { defineEvent, type AnyEventDefinition } from "./define";

/**
 * The stand-in the workspace topic and replay show for an event the reader may not see in full
 * (a private team's, or outside an API key's scopes): same seq, no data. Never appended itself.
 */
export const eventHidden = defineEvent("event.hidden", z.object({}).strict(), {
  readScope: null,
  subscribable: false,
  description: "Stands in for an event the reader may not see: same seq, no data.",
});

/**
 * Event types SPEC.md names for parts Desk does not build: webhooks have accepted subscriptions to
 * them from the start, so they stay in the catalogue (a type defined twice stops Desk at start).
 */
export const reservedEvents: AnyEventDefinition[] = [
  defineEvent("billing.updated", z.record(z.string(), z.unknown()), {
    readScope: "settings:read",
    description: "Reserved by SPEC.md (hosted offering only): the Billing object changed.",
  }),
];
