import { z } from "zod";
import { defineEvent } from "../events/define";
import { SlaPolicySchema } from "./sla.schemas";

const options = { readScope: "tickets:read" } as const;

export const slaPolicyCreated = defineEvent("sla_policy.created", z.object({ sla_policy: SlaPolicySchema }), {
  ...options,
  description: "An SLA policy was created.",
});
export const slaPolicyUpdated = defineEvent("sla_policy.updated", z.object({ sla_policy: SlaPolicySchema }), {
  ...options,
  description: "An SLA policy changed (its position included).",
});
export const slaPolicyDeleted = defineEvent("sla_policy.deleted", z.object({ sla_policy_id: z.string() }), {
  ...options,
  description: "An SLA policy was deleted.",
});
export const slaPolicyEvents = [slaPolicyCreated, slaPolicyUpdated, slaPolicyDeleted] as const;
