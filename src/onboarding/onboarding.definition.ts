import { primaryKey, table, text } from "../db/schema-kit";

/** Who hid the setup checklist in which workspace (`POST /v1/onboarding/dismiss`, per person). */
export const onboardingDismissalsTable = table(
  "onboarding_dismissals",
  {
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id").notNull(),
    dismissedAt: text("dismissed_at").notNull(),
  },
  (t) => [primaryKey(t.workspaceId, t.userId)],
);
