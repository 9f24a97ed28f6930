import { z } from "zod";

export const TRIAGE_FIELDS = ["priority", "severity", "labels", "team"] as const;
export type TriageField = (typeof TRIAGE_FIELDS)[number];

export const TriageSettingsSchema = z.object({
  auto_triage: z.boolean(),
  fields: z.array(z.enum(TRIAGE_FIELDS)).describe("the fields triage may set by itself"),
  assign_after_triage: z.boolean(),
  threshold: z.number().describe("decisions at or above this confidence apply; others are stored as suggestions"),
  engine: z.object({
    provider: z.enum(["engine_vendor", "llm", "none"]),
    model: z.string(),
    connected: z.boolean(),
  }),
  available: z
    .boolean()
    .describe("true when triage can run: an AI model or decision engine is configured and AI is on"),
});

export const TriagePatchBody = z
  .object({
    auto_triage: z.boolean(),
    fields: z
      .array(z.enum(TRIAGE_FIELDS))
      .max(TRIAGE_FIELDS.length)
      .refine((list) => new Set(list).size === list.length, "each field at most once"),
    assign_after_triage: z.boolean(),
    threshold: z.number().min(0.5).max(0.99),
  })
  .partial()
  .strict();

export type TriagePatch = z.infer<typeof TriagePatchBody>;
