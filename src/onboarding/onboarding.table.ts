import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Who hid the setup checklist in which workspace (`POST /v1/onboarding/dismiss`, per person). */
export const onboardingDismissals = sqliteTable(
  "onboarding_dismissals",
  {
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id").notNull(),
    dismissedAt: text("dismissed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
);
