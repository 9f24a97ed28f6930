import { first } from "../db/store";
import { eq, inArray } from "drizzle-orm";
import { users } from "./identity.table";
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
export async function userRef(db: Queryable, userId: string | null | undefined): Promise<UserRefJson | null> {
  if (!userId) return null;
  const row = first(
    await db
      .select({ id: users.id, name: users.name, email: users.email, avatarUrl: users.avatarUrl })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1),
  );
  return row ? presentUserRef(row) : null;
}

/** The UserRefs of these user ids, by id (ids of no user are left out). */
export async function userRefsOf(db: Queryable, userIds: readonly string[]): Promise<Map<string, UserRefJson>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, avatarUrl: users.avatarUrl })
    .from(users)
    .where(inArray(users.id, [...userIds]));
  return new Map(rows.map((u) => [u.id, presentUserRef(u)]));
}
