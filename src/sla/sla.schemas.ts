import { z } from "zod";
import { PRIORITIES } from "../tickets/tickets.public";

/** A year: the longest target a policy may set. */
const MAX_MINUTES = 525_600;
const Minutes = z.number().int().min(1).max(MAX_MINUTES);

export const SlaPolicySchema = z.object({
  id: z.string(),
  name: z.string(),
  priority: z.enum(PRIORITIES).nullable().describe("null matches every priority"),
  first_response_minutes: z.number(),
  resolution_minutes: z.number(),
  business_hours: z.boolean().describe("count only the open minutes of the workspace's business hours"),
  enabled: z.boolean(),
  position: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const CreateSlaPolicyBody = z.strictObject({
  name: z.string().trim().min(1).max(100),
  priority: z.enum(PRIORITIES).nullable().default(null),
  first_response_minutes: Minutes,
  resolution_minutes: Minutes,
  business_hours: z.boolean().default(false),
  enabled: z.boolean().default(true),
  position: z.number().int().min(0).max(10_000).optional(),
});

export const UpdateSlaPolicyBody = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  priority: z.enum(PRIORITIES).nullable().optional(),
  first_response_minutes: Minutes.optional(),
  resolution_minutes: Minutes.optional(),
  business_hours: z.boolean().optional(),
  enabled: z.boolean().optional(),
  position: z.number().int().min(0).max(10_000).optional(),
});
export type CreateSlaPolicy = z.output<typeof CreateSlaPolicyBody>;
export type UpdateSlaPolicy = z.output<typeof UpdateSlaPolicyBody>;
