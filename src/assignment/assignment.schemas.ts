import { z } from "zod";
import { ASSIGN_MODES } from "./assignment.table";

const Mode = z.enum(ASSIGN_MODES);
const Rule = z.strictObject({
  target_type: z.enum(["mailbox", "team"]),
  target_id: z.string().min(1).max(100),
  mode: Mode,
});

export const AssignmentSchema = z.object({
  mode: Mode,
  rules: z.array(z.object({ target_type: z.enum(["mailbox", "team"]), target_id: z.string(), mode: Mode })),
  auto_away_minutes: z.number().int(),
});

const AutoAway = z
  .number()
  .int()
  .refine((n) => n === 0 || (n >= 10 && n <= 1440), "0 (off) or 10 to 1440 minutes");

export const PatchAssignmentBody = z.strictObject({
  mode: Mode.optional(),
  rules: z.array(Rule).max(200).optional(),
  auto_away_minutes: AutoAway.optional(),
});

export const AvailabilityParams = z.object({ user_id: z.string().min(1).max(100) });
export const AvailabilityBody = z.strictObject({
  availability: z.enum(["online", "away", "offline"]).optional(),
  max_open_tickets: z.number().int().min(1).max(1000).nullable().optional(),
});
