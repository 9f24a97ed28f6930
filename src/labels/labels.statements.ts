import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements, inListSql, listParam } from "../db/dialect";
import { preparedFor } from "../db/sqlite/prepared";

/** A label with what record writes need: its group's exclusivity and its place in the label list. */
export type LabelFacts = {
  id: string;
  name: string;
  nameKey: string;
  color: string;
  groupId: string | null;
  appliesTo: Array<"tickets" | "contacts" | "companies">;
  exclusive: boolean;
  /** Sort keys of the label list: group position and id (null when ungrouped), label position. */
  groupPosition: number | null;
  joinedGroupId: string | null;
  position: number;
};

type RawFacts = Omit<LabelFacts, "appliesTo" | "exclusive"> & { appliesTo: string; exclusive: number };
export type TagRefRow = { recordId: string; id: string; name: string; color: string; groupId: string | null };

const FACTS = `t.id, t.name, t.name_key AS nameKey, t.color, t.group_id AS groupId, t.applies_to AS appliesTo,
  coalesce(g.exclusive, 0) AS exclusive, g.position AS groupPosition, g.id AS joinedGroupId, t.position`;
const REF = "rt.record_id AS recordId, t.id, t.name, t.color, t.group_id AS groupId";
/** The label list order (labelsOf): group position, group, position, name. */
const LIST_ORDER = "ORDER BY g.position, g.id, t.position, t.name_key";

const statements = preparedFor((sqlite) => ({
  refsOfOne: sqlite.query<TagRefRow, [string, string]>(
    `SELECT ${REF} FROM record_tags rt JOIN tags t ON t.id = rt.tag_id LEFT JOIN tag_groups g ON g.id = t.group_id
     WHERE rt.kind = +? AND rt.record_id = +? ${LIST_ORDER}`,
  ),
  refsOfMany: sqlite.query<TagRefRow, [string, string]>(
    `SELECT ${REF} FROM record_tags rt JOIN tags t ON t.id = rt.tag_id LEFT JOIN tag_groups g ON g.id = t.group_id
     WHERE rt.kind = +? AND ${inListSql("rt.record_id")} ${LIST_ORDER}`,
  ),
  current: sqlite.query<RawFacts, [string, string]>(
    `SELECT ${FACTS} FROM record_tags rt JOIN tags t ON t.id = rt.tag_id LEFT JOIN tag_groups g ON g.id = t.group_id
     WHERE rt.kind = +? AND rt.record_id = +? ORDER BY rt.created_at`,
  ),
  byKeys: sqlite.query<RawFacts, [string, string]>(
    `SELECT ${FACTS} FROM tags t LEFT JOIN tag_groups g ON g.id = t.group_id
     WHERE t.workspace_id = +? AND ${inListSql("t.name_key")}`,
  ),
  count: sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM tags WHERE workspace_id = +?"),
  attach: sqlite.query<unknown, [string, string, string, string, string]>(
    "INSERT INTO record_tags (workspace_id, kind, record_id, tag_id, created_at) VALUES (?, ?, ?, ?, ?)",
  ),
  detach: sqlite.query<unknown, [string, string, string]>(
    "DELETE FROM record_tags WHERE kind = +? AND record_id = +? AND tag_id = +?",
  ),
}));

const facts = (raw: RawFacts): LabelFacts => ({
  ...raw,
  appliesTo: JSON.parse(raw.appliesTo) as LabelFacts["appliesTo"],
  exclusive: raw.exclusive === 1,
});

export const labelStatements = (db: Queryable) => statements(db);
export const currentLabelFacts = async (db: Queryable, kind: string, recordId: string): Promise<LabelFacts[]> =>
  statements(db).current.all(kind, recordId).map(facts);
export const labelFactsByKeys = async (
  db: Queryable,
  workspaceId: string,
  keys: readonly string[],
): Promise<LabelFacts[]> => statements(db).byKeys.all(workspaceId, listParam(keys)).map(facts);

/** SQLite's BINARY text order (UTF-8 bytes, which is code point order), for sorting like the SQL above. */
function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

/** NULL sorts first, as in SQLite's ascending order. */
function compareNullable<T extends string | number>(a: T | null, b: T | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === "number") return a - (b as number);
  return compareCodePoints(a as string, b as string);
}

/** Sorts labels in the label list order used by labelsOf. */
export function inListOrder(labels: LabelFacts[]): LabelFacts[] {
  return [...labels].sort(
    (a, b) =>
      compareNullable(a.groupPosition, b.groupPosition) ||
      compareNullable(a.joinedGroupId, b.joinedGroupId) ||
      a.position - b.position ||
      compareCodePoints(a.nameKey, b.nameKey),
  );
}

/**
 * Fragments of the labels list's filters whose SQL differs by engine. SQLite finds a substring with
 * `instr` and walks the `applies_to` JSON list with `json_each`; a PostgreSQL twin uses `strpos` and
 * tests the `jsonb` list with `@>` (or `?`).
 */
export type LabelSqlParts = {
  /** `key` (a label's name key) holds `needle` as a plain substring. */
  keyContainsSql(key: SQLWrapper, needle: string): SQL;
  /** The JSON list of record kinds in `list` holds `kind`. */
  listHoldsSql(list: SQLWrapper, kind: string): SQL;
};

export const labelSqlParts = dialectStatements<LabelSqlParts>({
  // Fragments only: they need no connection, and the caller runs them on its own change.
  sqlite: () => ({
    keyContainsSql: (key, needle) => sql`instr(${key}, ${needle}) > 0`,
    listHoldsSql: (list, kind) => sql`EXISTS (SELECT 1 FROM json_each(${list}) WHERE value = ${kind})`,
  }),
});
