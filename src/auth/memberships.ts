import type { Db } from "../db/database";
import { preparedFor } from "../db/prepared";
import type { Role } from "./context";

export type Membership = { id: string; name: string; slug: string; role: Role };

type Row = Membership & { user_id: string };
const membershipsStatement = preparedFor((sqlite) =>
  sqlite.query<Row, [string]>(
    "SELECT w.id, w.name, w.slug, m.role, m.user_id FROM members m JOIN workspaces w ON w.id = m.workspace_id AND w.deleted_at IS NULL WHERE m.user_id = ? ORDER BY m.created_at, w.id",
  ),
);

/**
 * The workspaces a person belongs to, oldest membership first. Raw SQL like the credential
 * resolver (machinery never imports a feature), prepared once per database: GET /v1/me runs it
 * on every page load.
 */
export function membershipsOf(db: Db, userId: string): Membership[] {
  return membershipsStatement(db)
    .all(userId)
    .map(({ id, name, slug, role }) => ({ id, name, slug, role }));
}
