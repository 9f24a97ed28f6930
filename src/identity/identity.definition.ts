import { createdAt, flag, id, index, integer, table, text, timestamp, uniqueIndex, updatedAt } from "../db/schema-kit";

/** The users and sessions tables, declared once with the schema kit: identity.table.ts builds them for SQLite, identity.table.pg.ts for PostgreSQL. */
export const usersTable = table(
  "users",
  {
    id: id(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash"),
    avatarUrl: text("avatar_url"),
    avatarSource: text("avatar_source"),
    mfaSecretSealed: text("mfa_secret_sealed"),
    mfaEnabled: flag("mfa_enabled"),
    /** Recovery codes, hashed, JSON list; each works once. */
    mfaRecoveryHashes: text("mfa_recovery_hashes"),
    /** The TOTP time step last accepted: a code is good once, never replayed within its window. */
    mfaLastStep: integer("mfa_last_step"),
    /** The member's own language for the app (a canonical BCP 47 tag); null follows the browser. */
    locale: text("locale"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

/**
 * A sign-in on one browser or device. The refresh token is `<session id>.<generation>.<secret>`;
 * only the current generation's hash is kept, so presenting any older generation is reuse.
 */
export const sessionsTable = table(
  "sessions",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => [usersTable, "id"], { onDelete: "cascade" }),
    client: text("client", { enum: ["web", "native"] }).notNull(),
    generation: integer("generation").notNull().default(0),
    refreshHash: text("refresh_hash").notNull(),
    /** When the password (and code) were last proven: "recent sign-in" checks read it. */
    authenticatedAt: text("authenticated_at").notNull(),
    mfaVerified: flag("mfa_verified"),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt: createdAt(),
    lastUsedAt: text("last_used_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    revokedAt: timestamp("revoked_at"),
    revokedReason: text("revoked_reason"),
    updatedAt: updatedAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);
