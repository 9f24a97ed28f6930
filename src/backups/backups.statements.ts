import { SQL } from "bun";
import type { Dialect } from "../db/dialect";
import { copySqliteFile, sqliteFileIntegrity, sqliteFileMigrationTags } from "../db/sqlite/files";

/**
 * What a backup asks of the database engine: a consistent copy taken while Desk keeps writing, the
 * migrations a copy holds, and a full integrity check of a copy. These work on database files, not
 * on the serving connection, so they are chosen by engine rather than built per connection. On
 * SQLite: `VACUUM INTO` on a read-only connection of its own (one read snapshot), `__desk_migrations`
 * of the copy, `PRAGMA integrity_check`. The PostgreSQL twin dumps with `pg_dump --format=custom`
 * (one snapshot too; `pg_dump` must be on the PATH, of the server's major version or newer), reads the
 * tags from the dump's `__desk_migrations` data (`pg_restore --data-only`), and checks a dump with
 * `pg_restore --list` (its table of contents reads whole) rather than a page check.
 */
export interface BackupStatements {
  /** The copy's name inside an archive (which also tells the engine an archive was taken on). */
  readonly entry: string;
  /** Writes a consistent copy of the database at `source` (a file, or a server's URL) to the new file `target`. */
  snapshot(source: string, target: string): Promise<void>;
  /** The migration tags applied in the copy at `path`, in tag order. */
  migrationTags(path: string): Promise<string[]>;
  /** "ok" when the copy at `path` is whole, else what is wrong (or why it could not be read). */
  integrity(path: string): Promise<string>;
}

const sqlite: BackupStatements = {
  entry: "desk.db",
  async snapshot(source, target) {
    copySqliteFile(source, target);
  },
  async migrationTags(path) {
    return sqliteFileMigrationTags(path);
  },
  async integrity(path) {
    try {
      return sqliteFileIntegrity(path).join("; ");
    } catch (error) {
      return (error as Error).message;
    }
  },
};

/** A server's address for libpq's tools: the password goes in PGPASSWORD, never on a command line others can read. */
function libpqTarget(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** Runs one of PostgreSQL's client tools; answers its stdout, or throws its stderr. */
async function pgTool(args: string[], env: Record<string, string> = {}): Promise<string> {
  let child: ReturnType<typeof Bun.spawn>;
  try {
    child = Bun.spawn(args, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  } catch (error) {
    throw new Error(`${args[0]} could not run (${(error as Error).message}): install PostgreSQL's client tools`);
  }
  const [out, err, code] = await Promise.all([
    new Response(child.stdout as ReadableStream).text(),
    new Response(child.stderr as ReadableStream).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`${args[0]} failed: ${err.trim() || `exit code ${code}`}`);
  return out;
}

const postgres: BackupStatements = {
  entry: "desk.pgdump",
  async snapshot(source, target) {
    const { dbname, env } = libpqTarget(source);
    await pgTool(
      ["pg_dump", "--format=custom", "--no-owner", "--no-privileges", `--file=${target}`, `--dbname=${dbname}`],
      env,
    );
  },
  async migrationTags(path) {
    const script = await pgTool(["pg_restore", "--data-only", "--table=__desk_migrations", "--file=-", path]);
    const tags: string[] = [];
    let copying = false;
    for (const line of script.split("\n")) {
      if (line.startsWith("COPY ") && line.includes("__desk_migrations")) copying = true;
      else if (copying && line === "\\.") copying = false;
      else if (copying && line) tags.push(line.split("\t")[0]!);
    }
    return tags.sort();
  },
  async integrity(path) {
    try {
      await pgTool(["pg_restore", "--list", path]);
      return "ok";
    } catch (error) {
      return (error as Error).message;
    }
  },
};

/** The backup statements of an engine. */
export function backupStatements(dialect: Dialect = "sqlite"): BackupStatements {
  return dialect === "postgres" ? postgres : sqlite;
}

/** The statements of the engine whose copy an archive holds, by the copy's entry name. */
export const backupStatementsOfEntry = (entry: string): BackupStatements | null =>
  [sqlite, postgres].find((s) => s.entry === entry) ?? null;

/**
 * Why the database at `url` may not receive a restore (it holds tables already: restore never
 * merges into or overwrites live data), or null when it is empty. Throws when the server cannot be reached.
 */
export async function postgresRestoreRefusal(url: string): Promise<string | null> {
  const client = new SQL(url, { max: 1, connectionTimeout: 10, idleTimeout: 1 });
  try {
    const [row] =
      (await client`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = current_schema()`) as Array<{
        n: number;
      }>;
    return row && row.n > 0
      ? `the database ${shownUrl(url)} is not empty (${row.n} tables): restore only into an empty database`
      : null;
  } finally {
    await client.close({ timeout: 1 }).catch(() => {});
  }
}

/** Loads a dump into the (empty) database at `url`, in one transaction: a failure leaves it empty. */
export async function restorePostgresDump(path: string, url: string): Promise<void> {
  const { dbname, env } = libpqTarget(url);
  await pgTool(
    [
      "pg_restore",
      "--no-owner",
      "--no-privileges",
      "--exit-on-error",
      "--single-transaction",
      `--dbname=${dbname}`,
      path,
    ],
    env,
  );
}

/** A server's address without its credentials, for messages. */
const shownUrl = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}`;
};
