import { first, one } from "../db/store";
import { eq } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../db/database";
import { newId } from "../lib/ids";
import { users } from "./identity.table";
import { identityStatements } from "./identity.statements";

/**
 * People's rows as other features read and write them. `users` itself is exported for the members
 * feature's joins (its lists are one query each, people and memberships together).
 */
export { users };

/** The id of the person with this email (stored lowercase), or null. */
export const userIdByEmail = async (db: Queryable, email: string): Promise<string | null> =>
  first(await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1))?.id ?? null;

/** Who a mail to a person goes to and in which language they chose (`users.locale`, a BCP 47 tag or null). */
export const userMailRef = async (
  db: Queryable,
  userId: string,
): Promise<{ id: string; name: string; email: string; locale: string | null } | null> =>
  first(
    await db
      .select({ id: users.id, name: users.name, email: users.email, locale: users.locale })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1),
  ) ?? null;

/** Creates a person's account (an invitation accepted by someone new). */
export async function insertUser(tx: Tx, input: { email: string; name: string; passwordHash: string; now: string }) {
  return one(
    await tx
      .insert(users)
      .values({
        id: newId(),
        email: input.email,
        name: input.name,
        passwordHash: input.passwordHash,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning(),
  );
}

/**
 * A person's name by id (undefined: no such person), by a statement prepared once (presence asks per viewer).
 * Synchronous: the realtime gateway's slot (PresenceLookups.userName) still reads it without awaiting.
 */
export function userNames(db: Db): (userId: string) => (string | undefined) | Promise<string | undefined> {
  return identityStatements(db).userName;
}

/** The person's picture URL, or null when they have none (or do not exist). */
export const userAvatarUrl = async (db: Queryable, userId: string): Promise<string | null> =>
  first(await db.select().from(users).where(eq(users.id, userId)).limit(1))?.avatarUrl ?? null;

/** Sets or clears a person's picture; `oauth` marks one a sign-in provider gave. */
export async function setUserAvatar(
  tx: Tx,
  userId: string,
  url: string | null,
  source: "upload" | "oauth",
  now: string,
): Promise<void> {
  await tx
    .update(users)
    .set({ avatarUrl: url, avatarSource: url ? source : null, updatedAt: now })
    .where(eq(users.id, userId));
}
