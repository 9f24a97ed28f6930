import { z } from "zod";

const Ref = z.object({ kind: z.string(), id: z.string(), label: z.string(), number: z.number().optional() });
export const StepSchema = z.object({
  id: z.string(),
  tool: z.string(),
  label: z.string(),
  status: z.enum(["running", "done", "error", "awaiting_approval", "approved", "denied", "expired"]),
  summary: z.string().optional(),
  refs: z.array(Ref).optional(),
  action_id: z.string().optional(),
});
export const PreviewSchema = z.object({
  title: z.string(),
  summary: z.string(),
  changes: z.array(
    z.object({
      field: z.string(),
      from: z.unknown(),
      to: z.unknown(),
      /** The field and its values in words (people and teams by name), as the approval card shows them. */
      label: z.string().optional(),
      from_text: z.string().optional(),
      to_text: z.string().optional(),
    }),
  ),
  targets: z.array(Ref),
  external: z.boolean(),
  body: z.string().optional(),
  total: z.number().optional(),
});
export const AssistantSessionSchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
const Approval = z.object({
  action_id: z.string(),
  call_id: z.string(),
  tool: z.string(),
  status: z.string(),
  preview: PreviewSchema,
  expires_at: z.string(),
  token: z.string().optional(),
});
export const SessionDetailSchema = AssistantSessionSchema.extend({
  turns: z.array(
    z.object({
      id: z.string(),
      role: z.enum(["user", "assistant"]),
      text: z.string(),
      steps: z.array(StepSchema),
      created_at: z.string(),
    }),
  ),
  approval: Approval.nullable(),
});
export const RunSchema = z.object({
  session: AssistantSessionSchema,
  text: z.string(),
  steps: z.array(StepSchema),
  approval: Approval.nullable(),
  status: z.enum(["complete", "awaiting_approval"]),
});
export const TipSchema = z.object({
  key: z.enum(["sla_breached", "sla_due_soon", "sla_at_risk", "unassigned_old", "mine_waiting"]),
  text: z.string(),
  prompt: z.string(),
  severity: z.enum(["critical", "warning", "info"]),
  count: z.number(),
});

export const CreateSessionBody = z.strictObject({ title: z.string().trim().min(1).max(200).optional() });
export const RenameSessionBody = z.strictObject({ title: z.string().trim().min(1).max(200) });
export const MessageBody = z.strictObject({
  text: z.string().min(1).max(8000),
  context: z
    .strictObject({
      path: z.string().max(500).optional(),
      page: z.string().max(100).optional(),
      folder: z.string().max(100).optional(),
      view_id: z.string().max(100).optional(),
      ticket_id: z.string().max(100).optional(),
      filters: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});
export const DecisionBody = z.strictObject({
  decision: z.enum(["approve", "deny"]),
  token: z.string().min(1).max(200),
});
