import type { Dialect } from "../db/dialect";
import { inspectSqliteFile } from "../db/sqlite/files";

/** What `desk doctor` found in the database: it could not be opened, or its check and its migrations. */
export type DatabaseInspection =
  | { opened: false; error: string }
  | { opened: true; problems: string[]; applied: string[] };

/**
 * What `desk doctor` asks of the database engine, read-only and beside a running server. On
 * SQLite: the file opened read-only, `PRAGMA quick_check` (pages and structure, without comparing
 * indexes to tables) and `__desk_migrations`. The PostgreSQL twin connects to the server, checks the
 * indexes with the `amcheck` extension (`bt_index_check`) when it is installed, and reads
 * `__desk_migrations` there.
 */
export interface DoctorStatements {
  /** Opens the database at `location` read-only and reports its quick integrity problems and applied migration tags. */
  inspect(location: string): Promise<DatabaseInspection>;
}

const sqlite: DoctorStatements = {
  inspect: async (location) => inspectSqliteFile(location),
};

/** The doctor's statements of an engine (SQLite's until the PostgreSQL twin joins). */
export function doctorStatements(dialect: Dialect = "sqlite"): DoctorStatements {
  if (dialect !== "sqlite") throw new Error(`no ${dialect} implementation of the doctor's statements`);
  return sqlite;
}
