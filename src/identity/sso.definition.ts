import { createdAt, id, index, table, text, timestamp, uniqueIndex, updatedAt } from "../db/schema-kit";
import { usersTable } from "./identity.definition";

/** A person's account at an OpenID Connect provider: (provider, subject) is who signs in, never the email. */
export const ssoIdentitiesTable = table(
  "sso_identities",
  {
    id: id(),
    provider: text("provider").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => [usersTable, "id"], { onDelete: "cascade" }),
    /** The verified email the provider gave when the link was made (shown, never matched again). */
    email: text("email"),
    lastUsedAt: timestamp("last_used_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("sso_identities_subject_unique").on(t.provider, t.subject),
    index("sso_identities_user_idx").on(t.userId),
  ],
);

/**
 * One single sign-on in flight. Started: `state`, our PKCE verifier (sealed) and nonce for the
 * provider, and how the client proves it is the one that started (a browser cookie's hash, or the
 * native app's PKCE challenge). Finished at the callback: the person, and the hash of the one-time
 * code the client exchanges for a session. Rows expire after ten minutes and are used once.
 */
export const ssoFlowsTable = table(
  "sso_flows",
  {
    state: text("state").primaryKey(),
    provider: text("provider").notNull(),
    verifierSealed: text("verifier_sealed").notNull(),
    nonce: text("nonce").notNull(),
    client: text("client", { enum: ["web", "native"] }).notNull(),
    /** web: sha256 of the `desk_sso` cookie set at start. */
    browserHash: text("browser_hash"),
    /** native: the app's S256 code_challenge. */
    nativeChallenge: text("native_challenge"),
    next: text("next"),
    userId: text("user_id").references(() => [usersTable, "id"], { onDelete: "cascade" }),
    codeHash: text("code_hash"),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("sso_flows_code_unique").on(t.codeHash), index("sso_flows_expires_idx").on(t.expiresAt)],
);
