import { createdAt, id, index, table, text, timestamp, uniqueIndex } from "../db/schema-kit";
import { usersTable } from "./identity.definition";

/**
 * A password reset link. Only the token's SHA-256 is kept (the link is the secret); it works once
 * and until `expires_at`. Completing any reset, or changing the password, marks every open one used.
 */
export const passwordResetsTable = table(
  "password_resets",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => [usersTable, "id"], { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    /** "email" (the forgot-password form) or "operator" (`desk user reset-password`). */
    requestedBy: text("requested_by", { enum: ["email", "operator"] }).notNull(),
    requestedIp: text("requested_ip"),
    expiresAt: text("expires_at").notNull(),
    usedAt: timestamp("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("password_resets_token_unique").on(t.tokenHash), index("password_resets_user_idx").on(t.userId)],
);
