import { SQL } from "bun";
import { createHash } from "node:crypto";
import { lineages } from "../../migrations/lineages";
import { migratePostgres } from "../db/postgres/migrate";
import type { Clock } from "../lib/clock";
import { createSqliteTarget, openSqliteSource, type SqliteFile, type SqliteValue } from "./migrate-to.sql";

/**
 * `desk migrate-to postgres://…` (DECISIONS.md "Past one machine"): the SQLite file of a stopped
 * desk copied into an empty PostgreSQL database, then verified. The SQLite file is only read.
 *
 * Derived tables: the full-text tables (`*_search`) and the inbox counts (`ticket_counts`) are
 * rebuilt on the target by its own triggers, which stay on during the copy: each row copied is
 * indexed and counted exactly as a PostgreSQL desk would have done it, with no rebuild SQL of our own
 * to keep in step with the triggers (SQLite's FTS5 tables have nothing to copy anyway). The counts
 * are then compared with the source's. `ticket_times` is copied from the source after everything else
 * (replacing what the insert triggers wrote): it holds history the rows alone do not (when the status
 * last changed). Consumer cursors, event seqs and the workspaces' ticket-number counters are ordinary
 * rows, copied, so seqs and ticket numbers continue on the target.
 */

/** Refused before anything is written (a running or non-empty target, an unmigrated source…). */
export class MigrateToError extends Error {}

/** Rebuilt on the target by its triggers while the rows they index are copied. */
const REBUILT = new Set([
  "ticket_search",
  "message_search",
  "contact_search",
  "company_search",
  "article_search",
  "field_value_search",
  "ticket_counts",
]);
/** Copied last, over what the triggers wrote (see above). */
const COPIED_LAST = "ticket_times";
/** The target's own record of its migrations (compared with the source's, not copied). */
const MIGRATIONS_TABLE = "__desk_migrations";

type PgType = "boolean" | "integer" | "bigint" | "double precision" | "real" | "jsonb" | "bytea" | "text" | string;

export type TableReport = { table: string; rows: number; checksum: string };
export type MigrateToReport = {
  copied: TableReport[];
  rebuilt: Array<{ table: string; rows: number }>;
  /** Source tables with no counterpart on PostgreSQL (FTS5's own tables, search staging). */
  notCopied: string[];
  workspaces: number;
  events: number;
};

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const NULL_MARK = "\u0000null";

/** A stable text of a JSON value (jsonb reorders keys and drops whitespace). */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");

/** One value as both sides compare it, whatever engine it was read from (`target`: read as `readExpression` selects it). */
function canonical(type: PgType, value: unknown): string {
  if (value === null || value === undefined) return NULL_MARK;
  switch (type) {
    case "boolean":
      return typeof value === "boolean" ? (value ? "1" : "0") : Number(value) !== 0 ? "1" : "0";
    case "integer":
    case "bigint":
      return String(value);
    case "double precision":
    case "real":
      return String(Number(value));
    case "jsonb":
      return stableJson(JSON.parse(String(value)));
    case "bytea":
      return value instanceof Uint8Array ? hexOf(value) : String(value);
    default:
      return value instanceof Uint8Array ? hexOf(value) : String(value);
  }
}

/** How the target reads a column for the checksum: exact text where a JS number could lose digits. */
function readExpression(column: string, type: PgType): string {
  const c = quoted(column);
  if (type === "integer" || type === "bigint" || type === "jsonb") return `${c}::text`;
  if (type === "bytea") return `encode(${c}, 'hex')`;
  return c;
}

/** A bound parameter of the copy, cast to the column's type. */
function placeholder(n: number, type: PgType): string {
  switch (type) {
    case "boolean":
      return `$${n}::boolean`;
    case "integer":
      return `$${n}::text::integer`;
    case "bigint":
      return `$${n}::text::bigint`;
    case "double precision":
    case "real":
      return `$${n}::float8`;
    case "jsonb":
      return `$${n}::text::jsonb`;
    case "bytea":
      return `decode($${n}::text, 'hex')`;
    default:
      return `$${n}::text`;
  }
}

/** A source value as the copy binds it for a column of `type`. */
function bound(type: PgType, value: SqliteValue): unknown {
  if (value === null) return null;
  switch (type) {
    case "boolean":
      return Number(value) !== 0;
    case "integer":
    case "bigint":
      return String(value);
    case "double precision":
    case "real":
      return Number(value);
    case "jsonb":
      return typeof value === "string" ? value : JSON.stringify(typeof value === "bigint" ? Number(value) : value);
    case "bytea":
      return value instanceof Uint8Array ? hexOf(value) : Buffer.from(String(value)).toString("hex");
    default:
      return value instanceof Uint8Array ? Buffer.from(value).toString("utf8") : String(value);
  }
}

/** Order-independent: the sum of every row's hash (mod 2^64), with the row count. */
class Checksum {
  private sum = 0n;
  rows = 0;
  add(parts: string[]): void {
    const digest = createHash("sha256").update(parts.join("\u0001")).digest();
    this.sum = (this.sum + digest.readBigUInt64BE(0)) & 0xffff_ffff_ffff_ffffn;
    this.rows++;
  }
  get value(): string {
    return `${this.rows}:${this.sum.toString(16).padStart(16, "0")}`;
  }
}

type TargetSchema = Map<string, Map<string, PgType>>;

async function targetSchema(client: SQL): Promise<TargetSchema> {
  const rows: Array<{ table_name: string; column_name: string; data_type: string }> = await client.unsafe(
    `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER' ORDER BY c.table_name, c.ordinal_position`,
  );
  const schema: TargetSchema = new Map();
  for (const row of rows) {
    const columns = schema.get(row.table_name) ?? new Map<string, PgType>();
    columns.set(row.column_name, row.data_type);
    schema.set(row.table_name, columns);
  }
  return schema;
}

/** Refuses a database a desk (or anything else) is connected to. */
async function assertNoOtherConnections(client: SQL, role: "source" | "target"): Promise<void> {
  const others: Array<{ n: number }> = await client.unsafe(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  const n = others[0]?.n ?? 0;
  if (n === 0) return;
  throw new MigrateToError(
    role === "target"
      ? `the target database has ${n} other connection(s): stop every desk using it (migrate-to copies into a database nothing else uses)`
      : `the source database has ${n} other connection(s): stop every desk node (and anything else connected) first`,
  );
}

/** Refuses a target that holds any row (a migrated but empty database is fine). */
async function assertEmptyTarget(client: SQL): Promise<void> {
  for (const table of (await targetSchema(client)).keys()) {
    if (table === MIGRATIONS_TABLE) continue;
    const found: unknown[] = await client.unsafe(`SELECT 1 FROM ${quoted(table)} LIMIT 1`);
    if (found.length > 0)
      throw new MigrateToError(
        `the target database is not empty (${table} has rows): migrate-to copies into an empty database only`,
      );
  }
}

/** The source must hold exactly this binary's migrations (the target gets this binary's lineage). */
function assertSameSchemaVersion(tags: readonly string[], known: readonly string[], where: string): void {
  const held = new Set(tags);
  const unknown = [...held].filter((tag) => !known.includes(tag));
  if (unknown.length > 0)
    throw new MigrateToError(
      `${where} was written by a newer Desk (migrations ${unknown.join(", ")} are unknown here): run migrate-to with that release`,
    );
  const missing = known.filter((tag) => !held.has(tag));
  if (missing.length > 0)
    throw new MigrateToError(
      `${where} lacks migrations ${missing.join(", ")}: start this release on it once (or run \`desk migrate\`), stop it, then migrate-to`,
    );
}

/** Parents of foreign keys first, then the rest by name. */
async function copyOrder(client: SQL, tables: string[]): Promise<string[]> {
  const edges: Array<{ child: string; parent: string }> = await client.unsafe(
    `SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent FROM pg_constraint
      WHERE contype = 'f' AND connamespace = 'public'::regnamespace`,
  );
  const ordered: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const edge of edges) if (edge.child === table && edge.parent !== table) visit(edge.parent, path);
    if (tables.includes(table)) ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table, new Set());
  return ordered;
}

const MAX_PARAMETERS = 30_000;

async function copyTable(
  tx: SQL,
  source: SqliteFile,
  table: string,
  columns: string[],
  types: Map<string, PgType>,
): Promise<number> {
  const columnTypes = columns.map((c) => types.get(c) ?? "text");
  const perBatch = Math.max(1, Math.min(1000, Math.floor(MAX_PARAMETERS / columns.length)));
  const head = `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(", ")}) VALUES `;
  const tuple = (row: number) =>
    `(${columnTypes.map((type, i) => placeholder(row * columns.length + i + 1, type)).join(", ")})`;
  const fullText = head + Array.from({ length: perBatch }, (_, r) => tuple(r)).join(", ");
  let batch: unknown[] = [];
  let inBatch = 0;
  let copied = 0;
  const flush = async () => {
    if (inBatch === 0) return;
    const text =
      inBatch === perBatch ? fullText : head + Array.from({ length: inBatch }, (_, r) => tuple(r)).join(", ");
    await tx.unsafe(text, batch);
    copied += inBatch;
    batch = [];
    inBatch = 0;
  };
  for (const row of source.rows(table, columns)) {
    for (let i = 0; i < columns.length; i++) batch.push(bound(columnTypes[i] ?? "text", row[i] ?? null));
    inBatch++;
    if (inBatch === perBatch) await flush();
  }
  await flush();
  return copied;
}

function sqliteChecksum(
  file: SqliteFile,
  table: string,
  columns: string[],
  types: Map<string, PgType>,
  where?: (row: SqliteValue[]) => boolean,
): Checksum {
  const sum = new Checksum();
  for (const row of file.rows(table, columns)) {
    if (where && !where(row)) continue;
    sum.add(columns.map((c, i) => canonical(types.get(c) ?? "text", row[i] ?? null)));
  }
  return sum;
}

const PAGE = 5000;

/**
 * A PostgreSQL table's rows, page by page by ctid (PostgreSQL 14+ scans a ctid range directly), so
 * memory stays flat; each column read as `readExpression` gives it.
 */
async function* pgPages(
  client: SQL,
  table: string,
  columns: string[],
  types: Map<string, PgType>,
  where = "true",
): AsyncGenerator<unknown[][]> {
  const select = columns.map((c, i) => `${readExpression(c, types.get(c) ?? "text")} AS c${i}`).join(", ");
  let after = "(0,0)";
  for (;;) {
    const rows: Array<Record<string, unknown>> = await client.unsafe(
      `SELECT ctid::text AS ctid_, ${select} FROM ${quoted(table)} WHERE ctid > $1::tid AND (${where}) ORDER BY ctid LIMIT ${PAGE}`,
      [after],
    );
    yield rows.map((row) => columns.map((_, i) => row[`c${i}`] ?? null));
    if (rows.length < PAGE) return;
    after = String(rows[rows.length - 1]?.ctid_);
  }
}

async function pgChecksum(
  client: SQL,
  table: string,
  columns: string[],
  types: Map<string, PgType>,
  where = "true",
): Promise<Checksum> {
  const sum = new Checksum();
  for await (const page of pgPages(client, table, columns, types, where))
    for (const row of page) sum.add(columns.map((c, i) => canonical(types.get(c) ?? "text", row[i])));
  return sum;
}

/** A value read from PostgreSQL (as `readExpression` reads it) as the SQLite file stores it. */
function stored(type: PgType, value: unknown): SqliteValue {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "boolean":
      return value ? 1 : 0;
    case "integer":
    case "bigint":
      return BigInt(String(value));
    case "double precision":
    case "real":
      return Number(value);
    case "jsonb":
      return JSON.stringify(JSON.parse(String(value)));
    case "bytea":
      return Buffer.from(String(value), "hex");
    default:
      return String(value);
  }
}

/**
 * The seqs the verification checks: each workspace's events, numbered without gaps, and the counter
 * the next one is taken from. migrate-to works on every table by name, as data: the copy reads the
 * names from the two catalogues, and this check names its two here rather than in SQL text (the
 * events folder owns them; check:tables does not see interpolated names).
 */
const SEQS = { table: "events", counter: "event_seqs", last: "last_seq" } as const;

/** Every workspace's event seqs contiguous, and its counter at or past the last one. */
async function assertContiguousSeqs(client: SQL): Promise<{ workspaces: number; events: number }> {
  const rows: Array<{ workspace_id: string; n: string; low: string; high: string; last: string | null }> =
    await client.unsafe(
      `SELECT e.workspace_id, count(*)::text AS n, min(e.seq)::text AS low, max(e.seq)::text AS high,
              (SELECT s.${quoted(SEQS.last)}::text FROM ${quoted(SEQS.counter)} s WHERE s.workspace_id = e.workspace_id) AS last
         FROM ${quoted(SEQS.table)} e GROUP BY e.workspace_id`,
    );
  let events = 0;
  for (const row of rows) {
    const n = BigInt(row.n);
    events += Number(n);
    if (BigInt(row.high) - BigInt(row.low) + 1n !== n)
      throw new MigrateToError(
        `verification failed: workspace ${row.workspace_id}'s event seqs are not contiguous on the target (${row.n} events, seqs ${row.low}..${row.high})`,
      );
    if (row.last === null || BigInt(row.last) < BigInt(row.high))
      throw new MigrateToError(
        `verification failed: workspace ${row.workspace_id}'s seq counter (${row.last}) is behind its last event (${row.high})`,
      );
  }
  return { workspaces: rows.length, events };
}

export async function migrateSqliteToPostgres(options: {
  databasePath: string;
  targetUrl: string;
  clock?: Clock;
  log?: (line: string) => void;
}): Promise<MigrateToReport> {
  const log = options.log ?? (() => {});
  const source = openSqliteSource(options.databasePath);
  const client = new SQL(options.targetUrl, { max: 1 });
  try {
    assertSameSchemaVersion(
      source.migrationTags(),
      lineages.sqlite.map((m) => m.tag),
      "the SQLite file",
    );
    await assertNoOtherConnections(client, "target");
    await assertEmptyTarget(client);
    const applied = await migratePostgres(client, lineages.postgres, { clock: options.clock });
    log(applied.length > 0 ? `target migrated (${applied.length} migrations)` : "target already migrated");
    const schema = await targetSchema(client);
    const sourceTables = source.tables();
    const notCopied = [...sourceTables.keys()].filter(
      (t) => !schema.has(t) || (REBUILT.has(t) && t !== "ticket_counts"),
    );
    const copyable = [...sourceTables.keys()].filter(
      (t) => schema.has(t) && !REBUILT.has(t) && t !== MIGRATIONS_TABLE && t !== COPIED_LAST,
    );
    for (const table of [...copyable, COPIED_LAST]) {
      const missing = (sourceTables.get(table) ?? []).filter((c) => !schema.get(table)?.has(c));
      if (missing.length > 0)
        throw new MigrateToError(`the target's ${table} lacks the source's columns ${missing.join(", ")}`);
    }
    const order = [...(await copyOrder(client, copyable)), COPIED_LAST];

    const copied: TableReport[] = [];
    await client.begin(async (tx) => {
      for (const table of order) {
        if (table === COPIED_LAST) await tx.unsafe(`DELETE FROM ${quoted(table)}`);
        const columns = sourceTables.get(table) ?? [];
        const rows = await copyTable(tx, source, table, columns, schema.get(table) ?? new Map());
        log(`copied ${table}: ${rows} rows`);
        copied.push({ table, rows, checksum: "" });
      }
    });

    // Verification: the same rows (counted and checksummed over every column) on both sides.
    for (const entry of copied) {
      const columns = sourceTables.get(entry.table) ?? [];
      const types = schema.get(entry.table) ?? new Map();
      const expected = sqliteChecksum(source, entry.table, columns, types);
      const actual = await pgChecksum(client, entry.table, columns, types);
      if (expected.rows !== entry.rows || actual.value !== expected.value)
        throw new MigrateToError(
          `verification failed: ${entry.table} differs (source ${expected.value}, target ${actual.value})`,
        );
      entry.checksum = actual.value;
    }
    const countColumns = sourceTables.get("ticket_counts") ?? [];
    const countTypes = schema.get("ticket_counts") ?? new Map();
    const nAt = countColumns.indexOf("n");
    const expectedCounts = sqliteChecksum(source, "ticket_counts", countColumns, countTypes, (r) => Number(r[nAt]) > 0);
    const actualCounts = await pgChecksum(client, "ticket_counts", countColumns, countTypes, "n > 0");
    if (expectedCounts.value !== actualCounts.value)
      throw new MigrateToError("verification failed: the inbox counts rebuilt on the target differ from the source's");
    const seqs = await assertContiguousSeqs(client);
    const rebuilt: MigrateToReport["rebuilt"] = [];
    for (const table of [...REBUILT].sort()) {
      const rows: Array<{ n: number }> = await client.unsafe(`SELECT count(*)::int AS n FROM ${quoted(table)}`);
      rebuilt.push({ table, rows: rows[0]?.n ?? 0 });
    }
    await client.unsafe("ANALYZE");
    return { copied, rebuilt, notCopied, ...seqs };
  } finally {
    await client.close();
    await source.close();
  }
}

/**
 * `desk migrate-to sqlite:///dir --from postgres://…`, the way back: a PostgreSQL database no desk
 * is connected to, copied into a new SQLite file `<dir>/desk.db` (the dir new or empty) and verified.
 * The source is read in one REPEATABLE READ READ ONLY transaction (one snapshot, nothing written).
 * The target is migrated with this release's SQLite lineage first; its triggers stage search and keep
 * the inbox counts while rows go in (the staged documents enter the FTS5 indexes before the commit),
 * and `ticket_times` is copied last over what they wrote, as on the way there.
 */
export async function migratePostgresToSqlite(options: {
  sourceUrl: string;
  databasePath: string;
  log?: (line: string) => void;
}): Promise<MigrateToReport> {
  const log = options.log ?? (() => {});
  const client = new SQL(options.sourceUrl, { max: 1 });
  try {
    await assertNoOtherConnections(client, "source");
    return await client.begin(async (tx) => {
      await tx.unsafe("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      const tags: Array<{ tag: string }> = await tx.unsafe(`SELECT tag FROM ${MIGRATIONS_TABLE}`);
      assertSameSchemaVersion(
        tags.map((r) => r.tag),
        lineages.postgres.flatMap((m) => m.covers),
        "the PostgreSQL database",
      );
      const schema = await targetSchema(tx);
      const target = await createSqliteTarget(options.databasePath);
      try {
        const targetTables = target.tables();
        const notCopied = [...schema.keys()].filter((t) => !targetTables.has(t));
        const copyable = [...schema.keys()].filter(
          (t) => targetTables.has(t) && !REBUILT.has(t) && t !== MIGRATIONS_TABLE && t !== COPIED_LAST,
        );
        const columnsOf = (table: string) => [...(schema.get(table)?.keys() ?? [])];
        for (const table of [...copyable, COPIED_LAST]) {
          const missing = columnsOf(table).filter((c) => !targetTables.get(table)?.includes(c));
          if (missing.length > 0)
            throw new MigrateToError(`the new SQLite file's ${table} lacks the source's columns ${missing.join(", ")}`);
        }
        const order = [...(await copyOrder(tx, copyable)), COPIED_LAST];
        const copied: TableReport[] = [];
        for (const table of order) {
          if (table === COPIED_LAST) target.empty(table);
          const columns = columnsOf(table);
          const types = schema.get(table) ?? new Map<string, PgType>();
          const columnTypes = columns.map((c) => types.get(c) ?? "text");
          let rows = 0;
          for await (const page of pgPages(tx, table, columns, types)) {
            target.insert(
              table,
              columns,
              page.map((row) => row.map((value, i) => stored(columnTypes[i] ?? "text", value))),
            );
            rows += page.length;
          }
          log(`copied ${table}: ${rows} rows`);
          copied.push({ table, rows, checksum: "" });
        }
        target.commit();

        for (const entry of copied) {
          const columns = columnsOf(entry.table);
          const types = schema.get(entry.table) ?? new Map<string, PgType>();
          const expected = await pgChecksum(tx, entry.table, columns, types);
          const actual = sqliteChecksum(target, entry.table, columns, types);
          if (actual.value !== expected.value)
            throw new MigrateToError(
              `verification failed: ${entry.table} differs (source ${expected.value}, target ${actual.value})`,
            );
          entry.checksum = actual.value;
        }
        const countColumns = columnsOf("ticket_counts");
        const countTypes = schema.get("ticket_counts") ?? new Map<string, PgType>();
        const nAt = countColumns.indexOf("n");
        const expectedCounts = await pgChecksum(tx, "ticket_counts", countColumns, countTypes, "n > 0");
        const actualCounts = sqliteChecksum(
          target,
          "ticket_counts",
          countColumns,
          countTypes,
          (r) => Number(r[nAt]) > 0,
        );
        if (expectedCounts.value !== actualCounts.value)
          throw new MigrateToError(
            "verification failed: the inbox counts rebuilt in the SQLite file differ from the source's",
          );
        const seqs = await assertContiguousSeqs(tx);
        const rebuilt = [...REBUILT].sort().map((table) => ({ table, rows: target.count(table) }));
        return { copied, rebuilt, notCopied, ...seqs };
      } finally {
        await target.close();
      }
    });
  } finally {
    await client.close();
  }
}
