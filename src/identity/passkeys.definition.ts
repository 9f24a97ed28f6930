import { createdAt, flag, id, index, integer, table, text, timestamp, uniqueIndex, updatedAt } from "../db/schema-kit";
import { usersTable } from "./identity.definition";

/** A person's WebAuthn credentials (passkeys): several per person, each named by its owner. */
export const passkeysTable = table(
  "passkeys",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => [usersTable, "id"], { onDelete: "cascade" }),
    /** The authenticator's credential id, base64url: what a sign-in assertion names. */
    credentialId: text("credential_id").notNull(),
    /** COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    /** The signature counter last seen (0 for authenticators that keep none, as synced passkeys do). */
    counter: integer("counter").notNull().default(0),
    transports: text("transports"),
    name: text("name").notNull(),
    /** `multiDevice` for a synced passkey, `singleDevice` for one bound to its hardware. */
    deviceType: text("device_type").notNull(),
    backedUp: flag("backed_up"),
    lastUsedAt: timestamp("last_used_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("passkeys_credential_unique").on(t.credentialId), index("passkeys_user_idx").on(t.userId)],
);

/**
 * Outstanding WebAuthn challenges: each is random, answered once (deleted when used) and expires
 * after five minutes. `user_id` is set for registration, null for a sign-in (discoverable credentials).
 */
export const passkeyChallengesTable = table(
  "passkey_challenges",
  {
    challenge: text("challenge").primaryKey(),
    kind: text("kind", { enum: ["register", "sign_in"] }).notNull(),
    userId: text("user_id").references(() => [usersTable, "id"], { onDelete: "cascade" }),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("passkey_challenges_expires_idx").on(t.expiresAt)],
);
