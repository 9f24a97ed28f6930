import { SQL } from "bun";
import type { Dialect } from "../db/dialect";
import { inspectSqliteFile } from "../db/sqlite/files";

/**
 * What `desk doctor` found in the database: it could not be opened (or reached), or its check and
 * its migrations. `server` names a database server and its version (PostgreSQL; absent for a file);
 * `checked` is how many indexes an integrity check read where that is counted (PostgreSQL's amcheck),
 * null when no such check could run.
 */
export type DatabaseInspection =
  | { opened: false; error: string }
  | { opened: true; problems: string[]; applied: string[]; server?: string; checked?: number | null };

/**
 * What `desk doctor` asks of the database engine, read-only and beside a running server. On
 * SQLite: the file opened read-only, `PRAGMA quick_check` (pages and structure, without comparing
 * indexes to tables) and `__desk_migrations`. The PostgreSQL twin connects to the server (one
 * connection, a short timeout), reads its version, checks the B-tree indexes of the desk's schema
 * with the `amcheck` extension (`bt_index_check`) when it is installed, and reads
 * `__desk_migrations` there (none yet: a database Desk has not started on).
 */
export interface DoctorStatements {
  /** Opens the database at `location` read-only and reports its quick integrity problems and applied migration tags. */
  inspect(location: string): Promise<DatabaseInspection>;
}

const sqlite: DoctorStatements = {
  inspect: async (location) => inspectSqliteFile(location),
};

/** How long the doctor waits for the database server to accept a connection. */
const CONNECT_TIMEOUT_S = 5;

/** A connection error without the address's password (Bun's client does not print it, but a URL in a message might). */
const errorText = (error: unknown, url: string): string => {
  const text = error instanceof Error ? error.message : String(error);
  const password = safeUrl(url)?.password;
  return password ? text.split(decodeURIComponent(password)).join("…") : text;
};

const safeUrl = (url: string): URL | null => {
  try {
    return new URL(url);
  } catch {
    return null;
  }
};

const postgres: DoctorStatements = {
  async inspect(location) {
    const client = new SQL(location, { max: 1, connectionTimeout: CONNECT_TIMEOUT_S, idleTimeout: 1 });
    try {
      const [{ version }] = (await client`SELECT current_setting('server_version') AS version`) as Array<{
        version: string;
      }>;
      const hasTable = (await client`SELECT to_regclass('__desk_migrations') IS NOT NULL AS present`) as Array<{
        present: boolean;
      }>;
      const applied = hasTable[0]?.present
        ? ((await client`SELECT tag FROM __desk_migrations ORDER BY tag`) as Array<{ tag: string }>).map((r) => r.tag)
        : [];
      const amcheck = (await client`SELECT 1 FROM pg_extension WHERE extname = 'amcheck'`) as unknown[];
      const problems: string[] = [];
      let checked: number | null = null;
      if (amcheck.length > 0) {
        const indexes = (await client`
          SELECT c.oid::int8 AS oid, c.relname AS name
          FROM pg_index i
          JOIN pg_class c ON c.oid = i.indexrelid
          JOIN pg_am am ON am.oid = c.relam
          JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE am.amname = 'btree' AND n.nspname = current_schema() AND i.indisvalid AND i.indisready
          ORDER BY c.relname`) as Array<{ oid: number | string; name: string }>;
        for (const index of indexes) {
          try {
            await client`SELECT bt_index_check(${Number(index.oid)}::oid)`;
          } catch (error) {
            problems.push(`index ${index.name}: ${errorText(error, location)}`);
          }
        }
        checked = indexes.length;
      }
      return { opened: true, problems, applied, server: `PostgreSQL ${version.split(" ")[0]}`, checked };
    } catch (error) {
      return { opened: false, error: errorText(error, location) };
    } finally {
      await client.close({ timeout: 1 }).catch(() => {});
    }
  },
};

/** The doctor's statements of an engine: they open the database themselves, beside a running server. */
export function doctorStatements(dialect: Dialect = "sqlite"): DoctorStatements {
  return dialect === "postgres" ? postgres : sqlite;
}

/** A database address as the doctor prints it: host, port and database, never the credentials. */
export function shownDatabase(url: string): string {
  const parsed = safeUrl(url);
  if (!parsed) return "DESK_DATABASE_URL (unparsable)";
  return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}`;
}
