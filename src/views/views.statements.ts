import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
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
type RawView = Omit<VisibleView, "shared" | "filters"> & { shared: number | boolean; filters: string };

/**
 * The views a person sees (GET /v1/tickets/counts, `view_id` lists). The SQL is portable but for
 * what the PostgreSQL twin spells differently: `shared` is a boolean there, `filters` (jsonb) is
 * read as its JSON text, and names sort by code point (`COLLATE "C"`, SQLite's BINARY).
 */
export interface ViewStatements {
  /** The view `viewId` if it is shared or the person's own. */
  one(workspaceId: string, userId: string | null, viewId: string): Promise<RawView | null>;
  /** Every view the person sees, in list order (position, name, id). */
  all(workspaceId: string, userId: string | null): Promise<RawView[]>;
}

const VIEW = 'id, name, shared, position, filters, created_at AS "createdAt", updated_at AS "updatedAt"';
/** Shared views, plus the person's own (an API key passes no user: `user_id = NULL` is never true). */
const VISIBLE = "workspace_id = +? AND (shared = 1 OR user_id = +?)";
const PG_VIEW = VIEW.replace("filters,", "filters::text AS filters,");
const PG_VISIBLE = "workspace_id = ? AND (shared OR user_id = ?)";

export const viewStatements = dialectStatements<ViewStatements>({
  sqlite: (db) => {
    const sqlite = sqliteOf(db);
    const one = sqlite.query<RawView, [string, string | null, string]>(
      `SELECT ${VIEW} FROM views WHERE ${VISIBLE} AND id = +?`,
    );
    const all = sqlite.query<RawView, [string, string | null]>(
      `SELECT ${VIEW} FROM views WHERE ${VISIBLE} ORDER BY position, name, id`,
    );
    return {
      one: async (workspaceId, userId, viewId) => one.get(workspaceId, userId, viewId),
      all: async (workspaceId, userId) => all.all(workspaceId, userId),
    };
  },
  postgres: (db) => {
    const one = postgresQuery<RawView, [string, string | null, string]>(
      db,
      `SELECT ${PG_VIEW} FROM views WHERE ${PG_VISIBLE} AND id = ?`,
    );
    const all = postgresQuery<RawView, [string, string | null]>(
      db,
      `SELECT ${PG_VIEW} FROM views WHERE ${PG_VISIBLE} ORDER BY position, name COLLATE "C", id COLLATE "C"`,
    );
    return {
      one: (workspaceId, userId, viewId) => one.get(workspaceId, userId, viewId),
      all: (workspaceId, userId) => all.all(workspaceId, userId),
    };
  },
});

const viewOf = (raw: RawView): VisibleView => ({
  ...raw,
  shared: raw.shared === 1 || raw.shared === true,
  filters: (JSON.parse(raw.filters) as ViewFilters | null) ?? {},
});

export async function visibleViewRow(
  db: Queryable,
  workspaceId: string,
  userId: string | null,
  viewId: string,
): Promise<VisibleView | undefined> {
  const raw = await viewStatements(db).one(workspaceId, userId, viewId);
  return raw ? viewOf(raw) : undefined;
}

export const visibleViewRows = async (
  db: Queryable,
  workspaceId: string,
  userId: string | null,
): Promise<VisibleView[]> => (await viewStatements(db).all(workspaceId, userId)).map(viewOf);
