import { eq } from "drizzle-orm";
import { users } from "../auth/auth.table";
import type { Queryable } from "../db/database";

export type UserRefJson = { id: string; name: string; email: string; avatar_url: string | null };

type UserRow = Pick<typeof users.$inferSelect, "id" | "name" | "email" | "avatarUrl">;

export const presentUserRef = (row: UserRow): UserRefJson => ({
  id: row.id,
  name: row.name,
  email: row.email,
  avatar_url: row.avatarUrl ?? null,
});

/** The UserRef of a user id, or null when there is none (deleted user, system actor). */
export function userRef(db: Queryable, userId: string | null | undefined): UserRefJson | null {
  if (!userId) return null;
  const row = db
    .select({ id: users.id, name: users.name, email: users.email, avatarUrl: users.avatarUrl })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  return row ? presentUserRef(row) : null;
}
