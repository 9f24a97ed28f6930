import { dirname } from "node:path";
import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import { batchedWrite, dbOf } from "../db/tx";

/**
 * What GET /readyz asks of the database engine itself. On SQLite: the directory of the database
 * file (its file system's free space counts) and a real write to the file (the header's
 * user_version). The PostgreSQL twin has no local file (null: the server watches its own disk) and
 * probes with a write the server must log (`SELECT txid_current()` in a transaction, which fails on
 * a read-only or full server).
 */
export interface ReadinessStatements {
  /** The directory holding the database file, or null when it has none here (`:memory:`, a server). */
  databaseDir(): string | null;
  /** Makes the database commit a write now; rejects when it refuses one. */
  probeWrite(): Promise<void>;
}

export const readinessStatements = dialectStatements<ReadinessStatements>({
  sqlite: (db: Queryable) => {
    const sqlite = sqliteOf(db);
    const userVersion = sqlite.query<{ user_version: number }, []>("PRAGMA user_version");
    const filename = sqlite.filename;
    return {
      databaseDir: () => (filename && filename !== ":memory:" ? dirname(filename) : null),
      probeWrite: async () => {
        // Rewriting the header's user_version with its own value dirties page 1, so the commit really
        // writes to the WAL: a full disk or a read-only file fails here, as any other write would.
        const version = userVersion.get()?.user_version ?? 0;
        await batchedWrite(dbOf(db), () => {
          sqlite.run(`PRAGMA user_version = ${Math.trunc(version)}`);
        });
      },
    };
  },
  postgres: (db: Queryable) => {
    // txid_current() assigns a transaction id, which the server must log: a read-only or full server refuses it.
    const probe = postgresQuery<unknown, []>(db, "SELECT txid_current()");
    return {
      databaseDir: () => null,
      probeWrite: () => probe.run(),
    };
  },
});
