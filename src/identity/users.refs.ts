import type { Queryable } from "../db/database";
import { jsonList, preparedFor } from "../db/prepared";

export type UserRefRow = { id: string; name: string; email: string; avatarUrl: string | null };

const statements = preparedFor((sqlite) => ({
  one: sqlite.query<UserRefRow, [string]>("SELECT id, name, email, avatar_url AS avatarUrl FROM users WHERE id = +?"),
  many: sqlite.query<UserRefRow, [string]>(
    "SELECT id, name, email, avatar_url AS avatarUrl FROM users WHERE id IN (SELECT value FROM json_each(+?))",
  ),
}));

/** The people behind these ids as refs show them, prepared once: every presented ticket asks (ids of no user are left out). */
export async function userRefRows(db: Queryable, ids: string[]): Promise<UserRefRow[]> {
  const s = statements(db);
  if (ids.length === 1) {
    const row = s.one.get(ids[0]!);
    return row ? [row] : [];
  }
  return s.many.all(jsonList(ids));
}
