import { z } from "zod";
import { ACTION_TYPES, ActionSchema, type ActionType } from "../automations/automations.public";

/** The automation actions a person may run by hand: all but ai_triage (the AI acts on its own events). */
export const MACRO_ACTION_TYPES = ACTION_TYPES.filter((t) => t !== "ai_triage") as [
  Exclude<ActionType, "ai_triage">,
  ...Exclude<ActionType, "ai_triage">[],
];

export const MacroActionSchema = ActionSchema.extend({ type: z.enum(MACRO_ACTION_TYPES) });

export const MacroSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  shared: z.boolean(),
  actions: z.array(z.object({ type: z.enum(ACTION_TYPES), value: z.string(), field: z.string().optional() })),
  position: z.number(),
  usage_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

const Name = z.string().trim().min(1).max(100);
const Description = z.string().trim().max(500);
const Position = z.number().int().min(0).max(1_000_000);
const Actions = z.array(MacroActionSchema).min(1).max(20);

export const CreateMacroBody = z.strictObject({
  name: Name,
  description: Description.optional(),
  shared: z.boolean().optional(),
  actions: Actions,
  position: Position.optional(),
});
export const UpdateMacroBody = z.strictObject({
  name: Name.optional(),
  description: Description.optional(),
  shared: z.boolean().optional(),
  actions: Actions.optional(),
  position: Position.optional(),
});
export type CreateMacroInput = z.infer<typeof CreateMacroBody>;
export type UpdateMacroInput = z.infer<typeof UpdateMacroBody>;
