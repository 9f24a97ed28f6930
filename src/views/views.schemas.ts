import { z } from "zod";

const TICKET_STATUSES = ["open", "pending", "on_hold", "solved", "closed"] as const;
const PRIORITIES = ["low", "normal", "high", "urgent"] as const;
const CHANNELS = ["email", "chat", "api", "portal"] as const;

export const ViewFiltersSchema = z.strictObject({
  status: z.array(z.enum(TICKET_STATUSES)).max(5).optional(),
  priority: z.array(z.enum(PRIORITIES)).max(4).optional(),
  assignee: z.string().min(1).max(100).optional(),
  team_id: z.string().min(1).max(100).optional(),
  mailbox_id: z.string().min(1).max(100).optional(),
  tag: z.string().min(1).max(200).optional(),
  channel: z.enum(CHANNELS).optional(),
  q: z.string().max(500).optional(),
  fields: z
    .array(
      z.strictObject({
        key: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/),
        op: z.string().max(20),
        value: z.string().max(1000),
      }),
    )
    .max(20)
    .optional(),
});

/** SPEC.md View.filters: every member optional. */
export type ViewFilters = z.infer<typeof ViewFiltersSchema>;

export const ViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  shared: z.boolean(),
  position: z.number(),
  filters: ViewFiltersSchema,
  created_at: z.string(),
  updated_at: z.string(),
});

const Name = z.string().trim().min(1).max(100);
const Position = z.number().int().min(0).max(1_000_000);
export const CreateViewBody = z.strictObject({
  name: Name,
  shared: z.boolean().optional(),
  position: Position.optional(),
  filters: ViewFiltersSchema.optional(),
});
export const UpdateViewBody = CreateViewBody.partial();
