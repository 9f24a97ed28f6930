import { z } from "zod";

export const ONBOARDING_STEPS = [
  "connect_mailbox",
  "invite_teammate",
  "upload_photo",
  "install_widget",
  "publish_article",
  "setup_triage",
  "create_label",
  "try_assistant",
] as const;
export type OnboardingStepId = (typeof ONBOARDING_STEPS)[number];

export const OnboardingSchema = z.object({
  steps: z.array(
    z.object({
      id: z.enum(ONBOARDING_STEPS),
      title: z.string(),
      description: z.string(),
      done: z.boolean(),
      href: z.string().describe("where in the web app the step is done"),
      requires: z.enum(["admin", "agent"]).describe("the least role that can do the step"),
    }),
  ),
  done_count: z.number(),
  total: z.number(),
  dismissed: z.boolean().describe("the caller hid the checklist (per person)"),
});
