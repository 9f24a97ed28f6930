import { z } from "zod";
import { defineEvent } from "../events/define";
import { AutomationSchema } from "./automations.schemas";

const options = { readScope: "tickets:read" } as const;

export const automationCreated = defineEvent("automation.created", z.object({ automation: AutomationSchema }), {
  ...options,
  description: "An automation was created.",
});
export const automationUpdated = defineEvent("automation.updated", z.object({ automation: AutomationSchema }), {
  ...options,
  description: "An automation changed (also when a label rename or merge rewrote it; not when it runs).",
});
export const automationDeleted = defineEvent("automation.deleted", z.object({ automation_id: z.string() }), {
  ...options,
  description: "An automation was deleted.",
});
export const automationEvents = [automationCreated, automationUpdated, automationDeleted] as const;
