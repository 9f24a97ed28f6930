import type { Queryable } from "../db/database";
import { preparedFor } from "../db/sqlite/prepared";
import type { ViewFilters } from "./views.table";

/** What the ticket list needs of a view, read with statements prepared once per database. */
export type VisibleView = {
  id: string;
  name: string;
  shared: boolean;
  position: number;
  filters: ViewFilters;
  createdAt: string;
  updatedAt: string;
};
type RawView = Omit<VisibleView, "shared" | "filters"> & { shared: number; filters: string };

const VIEW = "id, name, shared, position, filters, created_at AS createdAt, updated_at AS updatedAt";
/** Shared views, plus the person's own (an API key passes no user: `user_id = NULL` is never true). */
const VISIBLE = "workspace_id = +? AND (shared = 1 OR user_id = +?)";

const statements = preparedFor((sqlite) => ({
  one: sqlite.query<RawView, [string, string | null, string]>(`SELECT ${VIEW} FROM views WHERE ${VISIBLE} AND id = +?`),
  all: sqlite.query<RawView, [string, string | null]>(
    `SELECT ${VIEW} FROM views WHERE ${VISIBLE} ORDER BY position, name, id`,
  ),
}));

const viewOf = (raw: RawView): VisibleView => ({
  ...raw,
  shared: raw.shared === 1,
  filters: (JSON.parse(raw.filters) as ViewFilters | null) ?? {},
});

export async function visibleViewRow(
  db: Queryable,
  workspaceId: string,
  userId: string | null,
  viewId: string,
): Promise<VisibleView | undefined> {
  const raw = statements(db).one.get(workspaceId, userId, viewId);
  return raw ? viewOf(raw) : undefined;
}

export const visibleViewRows = async (
  db: Queryable,
  workspaceId: string,
  userId: string | null,
): Promise<VisibleView[]> => statements(db).all.all(workspaceId, userId).map(viewOf);
