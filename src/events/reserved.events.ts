import { z } from "zod";
import type { Scope } from "../auth/context";
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
 * Event types SPEC.md names for features not built yet. Webhooks have accepted subscriptions to
 * them from the start, so they stay in the catalogue, with the read scope their resource will
 * have, until their feature defines them (a type defined twice stops Desk at start: remove the
 * line here then). Their data is the resource (`{ <resource> }`, or `{ <resource>_id }` on delete).
 */
const reserved = (resource: string, readScope: Scope, actions: string[]): AnyEventDefinition[] =>
  actions.map((action) =>
    defineEvent(
      `${resource}.${action}`,
      action === "deleted"
        ? z.object({ [`${resource}_id`]: z.string() })
        : z.object({ [resource]: z.record(z.string(), z.unknown()) }),
      { readScope, description: `Reserved by SPEC.md for a feature not built yet: a ${resource} was ${action}.` },
    ),
  );

const CRUD = ["created", "updated", "deleted"];

export const reservedEvents: AnyEventDefinition[] = [
  ...reserved("automation", "tickets:read", CRUD),
  ...reserved("sla_policy", "tickets:read", CRUD),
  defineEvent("billing.updated", z.record(z.string(), z.unknown()), {
    readScope: "settings:read",
    description: "Reserved by SPEC.md (hosted offering only): the Billing object changed.",
  }),
];
