import { z } from "zod";
import { defineEvent } from "../events/define";
import { MacroSchema } from "./macros.schemas";

const options = { readScope: "tickets:read" } as const;

export const macroCreated = defineEvent("macro.created", z.object({ macro: MacroSchema }), {
  ...options,
  description: "A macro was created (personal ones too, like personal views).",
});
export const macroUpdated = defineEvent("macro.updated", z.object({ macro: MacroSchema }), {
  ...options,
  description: "A macro changed (not when it is applied; the ticket's own events say what it did).",
});
export const macroDeleted = defineEvent("macro.deleted", z.object({ macro_id: z.string() }), {
  ...options,
  description: "A macro was deleted.",
});
export const macroEvents = [macroCreated, macroUpdated, macroDeleted] as const;
