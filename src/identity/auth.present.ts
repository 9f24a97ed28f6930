import type { users } from "./identity.table";

export type UserRow = typeof users.$inferSelect;

/** The signed-in person as they see themselves (login answers, GET /v1/me). Never hashes or secrets. */
export const presentUser = (row: UserRow) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  avatar_url: row.avatarUrl ?? null,
  avatar_source: row.avatarSource ?? null,
  mfa_enabled: row.mfaEnabled,
  locale: row.locale ?? null,
  created_at: row.createdAt,
});

export type UserJson = ReturnType<typeof presentUser>;
