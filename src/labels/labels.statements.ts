import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { type Dialect, dialectStatements, inListSql, listParam } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";

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

// The SQL of both engines; aliases are quoted (PostgreSQL folds unquoted names to lower case).
const FACTS = `t.id, t.name, t.name_key AS "nameKey", t.color, t.group_id AS "groupId", t.applies_to AS "appliesTo",
  coalesce(g.exclusive, 0) AS exclusive, g.position AS "groupPosition", g.id AS "joinedGroupId", t.position`;
/** The same row on PostgreSQL: `applies_to` as its JSON text, `exclusive` as 0/1 (what `RawFacts` holds). */
const PG_FACTS = `t.id, t.name, t.name_key AS "nameKey", t.color, t.group_id AS "groupId", t.applies_to #>> '{}' AS "appliesTo",
  coalesce(g.exclusive, false)::int AS exclusive, g.position AS "groupPosition", g.id AS "joinedGroupId", t.position`;
const REF = `rt.record_id AS "recordId", t.id, t.name, t.color, t.group_id AS "groupId"`;
/**
 * The label list order (labelsOf): group position, group, position, name. Ungrouped labels (no
 * group: NULL) come first, SQLite's order of NULL; PostgreSQL is told so, and compares the text by
 * code point as SQLite's BINARY does.
 */
const LIST_ORDER = "ORDER BY g.position, g.id, t.position, t.name_key";
const PG_LIST_ORDER = `ORDER BY g.position NULLS FIRST, g.id COLLATE "C" NULLS FIRST, t.position, t.name_key COLLATE "C"`;
const REFS_OF_ONE = (order: string) =>
  `SELECT ${REF} FROM record_tags rt JOIN tags t ON t.id = rt.tag_id LEFT JOIN tag_groups g ON g.id = t.group_id
     WHERE rt.kind = +? AND rt.record_id = +? ${order}`;
const REFS_OF_MANY = (dialect: Dialect, order: string) =>
  `SELECT ${REF} FROM record_tags rt JOIN tags t ON t.id = rt.tag_id LEFT JOIN tag_groups g ON g.id = t.group_id
     WHERE rt.kind = +? AND ${inListSql("rt.record_id", dialect)} ${order}`;
const CURRENT = (facts: string, order: string) =>
  `SELECT ${facts} FROM record_tags rt JOIN tags t ON t.id = rt.tag_id LEFT JOIN tag_groups g ON g.id = t.group_id
     WHERE rt.kind = +? AND rt.record_id = +? ${order}`;
const BY_KEYS = (facts: string, dialect: Dialect) =>
  `SELECT ${facts} FROM tags t LEFT JOIN tag_groups g ON g.id = t.group_id
     WHERE t.workspace_id = +? AND ${inListSql("t.name_key", dialect)}`;
const ATTACH = "INSERT INTO record_tags (workspace_id, kind, record_id, tag_id, created_at) VALUES (?, ?, ?, ?, ?)";
const DETACH = "DELETE FROM record_tags WHERE kind = +? AND record_id = +? AND tag_id = +?";

/**
 * The label writes' and reads' statements (every record write and record list reads them),
 * prepared once per connection. PostgreSQL's twin reads `exclusive` (a boolean) as 0/1 and
 * `applies_to` (jsonb) as its JSON text, says where NULL sorts (first, as on SQLite) and compares text by code point (`COLLATE "C"`,
 * SQLite's BINARY); it breaks ties of `created_at` by tag id, the order SQLite's sort keeps them in
 * (it reads them by the record's key, whose last column is the tag id).
 */
export interface LabelStatements {
  /** The labels of one record, in the label list order. */
  refsOfOne(kind: string, recordId: string): Promise<TagRefRow[]>;
  /** The labels of these records, in the label list order. */
  refsOfMany(kind: string, recordIds: readonly string[]): Promise<TagRefRow[]>;
  /** The labels the record carries, oldest first. */
  current(kind: string, recordId: string): Promise<LabelFacts[]>;
  /** The workspace's labels of these name keys (keys of no label are left out). */
  byKeys(workspaceId: string, keys: readonly string[]): Promise<LabelFacts[]>;
  /** How many labels the workspace has. */
  count(workspaceId: string): Promise<number>;
  /** Puts a label on a record. */
  attach(workspaceId: string, kind: string, recordId: string, tagId: string, at: string): Promise<void>;
  /** Takes a label off a record. */
  detach(kind: string, recordId: string, tagId: string): Promise<void>;
}

const facts = (raw: RawFacts): LabelFacts => ({
  ...raw,
  appliesTo: JSON.parse(raw.appliesTo) as LabelFacts["appliesTo"],
  exclusive: raw.exclusive === 1,
});

export const labelStatements = dialectStatements<LabelStatements>({
  sqlite: (db) => {
    const sqlite = sqliteOf(db);
    const refsOfOne = sqlite.query<TagRefRow, [string, string]>(REFS_OF_ONE(LIST_ORDER));
    const refsOfMany = sqlite.query<TagRefRow, [string, string]>(REFS_OF_MANY("sqlite", LIST_ORDER));
    const current = sqlite.query<RawFacts, [string, string]>(CURRENT(FACTS, "ORDER BY rt.created_at"));
    const byKeys = sqlite.query<RawFacts, [string, string]>(BY_KEYS(FACTS, "sqlite"));
    const count = sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM tags WHERE workspace_id = +?");
    const attach = sqlite.query<unknown, [string, string, string, string, string]>(ATTACH);
    const detach = sqlite.query<unknown, [string, string, string]>(DETACH);
    return {
      refsOfOne: async (kind, recordId) => refsOfOne.all(kind, recordId),
      refsOfMany: async (kind, recordIds) => refsOfMany.all(kind, listParam(recordIds)),
      current: async (kind, recordId) => current.all(kind, recordId).map(facts),
      byKeys: async (workspaceId, keys) => byKeys.all(workspaceId, listParam(keys)).map(facts),
      count: async (workspaceId) => count.get(workspaceId)?.n ?? 0,
      attach: async (workspaceId, kind, recordId, tagId, at) => {
        attach.run(workspaceId, kind, recordId, tagId, at);
      },
      detach: async (kind, recordId, tagId) => {
        detach.run(kind, recordId, tagId);
      },
    };
  },
  postgres: (db) => {
    const refsOfOne = postgresQuery<TagRefRow, [string, string]>(db, REFS_OF_ONE(PG_LIST_ORDER));
    const refsOfMany = postgresQuery<TagRefRow, [string, string]>(db, REFS_OF_MANY("postgres", PG_LIST_ORDER));
    const current = postgresQuery<RawFacts, [string, string]>(
      db,
      CURRENT(PG_FACTS, `ORDER BY rt.created_at, rt.tag_id COLLATE "C"`),
    );
    const byKeys = postgresQuery<RawFacts, [string, string]>(db, BY_KEYS(PG_FACTS, "postgres"));
    const count = postgresQuery<{ n: number }, [string]>(
      db,
      "SELECT count(*)::int AS n FROM tags WHERE workspace_id = +?",
    );
    const attach = postgresQuery<unknown, [string, string, string, string, string]>(db, ATTACH);
    const detach = postgresQuery<unknown, [string, string, string]>(db, DETACH);
    return {
      refsOfOne: (kind, recordId) => refsOfOne.all(kind, recordId),
      refsOfMany: (kind, recordIds) => refsOfMany.all(kind, listParam(recordIds)),
      current: async (kind, recordId) => (await current.all(kind, recordId)).map(facts),
      byKeys: async (workspaceId, keys) => (await byKeys.all(workspaceId, listParam(keys))).map(facts),
      count: async (workspaceId) => (await count.get(workspaceId))?.n ?? 0,
      attach: (workspaceId, kind, recordId, tagId, at) => attach.run(workspaceId, kind, recordId, tagId, at),
      detach: (kind, recordId, tagId) => detach.run(kind, recordId, tagId),
    };
  },
});

export const currentLabelFacts = (db: Queryable, kind: string, recordId: string): Promise<LabelFacts[]> =>
  labelStatements(db).current(kind, recordId);
export const labelFactsByKeys = (db: Queryable, workspaceId: string, keys: readonly string[]): Promise<LabelFacts[]> =>
  labelStatements(db).byKeys(workspaceId, keys);

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
 * `instr` and walks the `applies_to` JSON list with `json_each`; PostgreSQL's twin uses `strpos` and
 * tests the `jsonb` list with `jsonb_exists` (the `?` operator).
 */
export type LabelSqlParts = {
  /** `key` (a label's name key) holds `needle` as a plain substring. */
  keyContainsSql(key: SQLWrapper, needle: string): SQL;
  /** The JSON list of record kinds in `list` holds `kind`. */
  listHoldsSql(list: SQLWrapper, kind: string): SQL;
  /**
   * The label list's ORDER BY terms (group position, group, position, name key), ungrouped labels
   * first: SQLite's order of NULL, which PostgreSQL is told; its text compares by code point there.
   */
  listOrderSql(groupPosition: SQLWrapper, groupId: SQLWrapper, position: SQLWrapper, nameKey: SQLWrapper): SQL[];
};

export const labelSqlParts = dialectStatements<LabelSqlParts>({
  // Fragments only: they need no connection, and the caller runs them on its own change.
  sqlite: () => ({
    keyContainsSql: (key, needle) => sql`instr(${key}, ${needle}) > 0`,
    listHoldsSql: (list, kind) => sql`EXISTS (SELECT 1 FROM json_each(${list}) WHERE value = ${kind})`,
    listOrderSql: (groupPosition, groupId, position, nameKey) => [
      sql`${groupPosition} asc`,
      sql`${groupId} asc`,
      sql`${position} asc`,
      sql`${nameKey} asc`,
    ],
  }),
  postgres: () => ({
    keyContainsSql: (key, needle) => sql`strpos(${key}, ${needle}) > 0`,
    // `jsonb_exists` is the `?` operator, which a bound statement cannot spell.
    listHoldsSql: (list, kind) => sql`jsonb_exists(${list}, ${kind})`,
    listOrderSql: (groupPosition, groupId, position, nameKey) => [
      sql`${groupPosition} NULLS FIRST`,
      sql`${groupId} COLLATE "C" NULLS FIRST`,
      sql`${position}`,
      sql`${nameKey} COLLATE "C"`,
    ],
  }),
});
