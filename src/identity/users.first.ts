import { first } from "../db/store";
import { asc } from "drizzle-orm";
import { users } from "./identity.table";
import type { Queryable } from "../db/database";

/** The first person to register on this instance (who set it up), or null on a fresh one. */
export async function firstUserId(db: Queryable): Promise<string | null> {
  return (
    first(await db.select({ id: users.id }).from(users).orderBy(asc(users.createdAt), asc(users.id)).limit(1))?.id ??
    null
  );
}
