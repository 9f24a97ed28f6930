import { createdAt, index, integer, table, text, timestamp, updatedAt } from "../db/schema-kit";

/** Keys registered by POST /v1/auth/app-attest/keys after their attestation verified. */
export const appAttestKeysTable = table("app_attest_keys", {
  /** Apple's key id (base64 of the SHA-256 of the public key). */
  keyId: text("key_id").primaryKey(),
  appId: text("app_id").notNull(),
  publicKey: text("public_key").notNull(),
  /** Apple's receipt (base64), kept for fraud-metric checks with Apple later. */
  receipt: text("receipt").notNull(),
  environment: text("environment", { enum: ["production", "development"] }).notNull(),
  /** The assertion counter last accepted: each assertion must be higher. */
  counter: integer("counter").notNull().default(0),
  lastUsedAt: timestamp("last_used_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Single-use challenges of POST /v1/auth/app-attest/challenge: five minutes, deleted when used. */
export const appAttestChallengesTable = table(
  "app_attest_challenges",
  {
    challenge: text("challenge").primaryKey(),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("app_attest_challenges_expires_idx").on(t.expiresAt)],
);
