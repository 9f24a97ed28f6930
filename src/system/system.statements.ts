import { existsSync, statSync } from "node:fs";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";

/** How much room the database takes, as the System page shows it. */
export type DatabaseSize = { databaseBytes: number; walBytes: number };

/**
 * The database's size for the operator. On SQLite: the file at `path` and its write-ahead log, sized
 * on disk. The PostgreSQL twin asks the server (`pg_database_size` of the desk's database; `path`
 * is not read) and answers 0 for the log: the server's WAL is shared by every database on it and is
 * the server's to watch.
 */
export interface SystemStatements {
  databaseSize(path: string): Promise<DatabaseSize>;
}

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);

export const systemStatements = dialectStatements<SystemStatements>({
  sqlite: () => ({
    databaseSize: async (path) => ({ databaseBytes: sizeOf(path), walBytes: sizeOf(`${path}-wal`) }),
  }),
  postgres: (db) => {
    const size = postgresQuery<{ bytes: number }, []>(
      db,
      "SELECT pg_database_size(current_database())::float8 AS bytes",
    );
    return {
      databaseSize: async () => ({ databaseBytes: Number((await size.get())?.bytes ?? 0), walBytes: 0 }),
    };
  },
});
