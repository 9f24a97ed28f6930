import { existsSync, statSync } from "node:fs";
import type { Db } from "../db/database";
import { oldestDueMs } from "../jobs/jobs.stats";
import type { Clock } from "../lib/clock";
import type { MetricSource } from "./metrics";

/** Jobs by kind and state, counted at scrape time. */
export function jobsSource(db: Db, clock: Clock): MetricSource {
  const counts = db.$client.query<{ kind: string; state: string; n: number }, []>(
    "SELECT kind, state, count(*) AS n FROM jobs GROUP BY kind, state",
  );
  return () => {
    const now = clock.now();
    return [
      ...counts.all().map((r) => ({
        name: "desk_jobs",
        type: "gauge" as const,
        help: "Jobs by kind and state",
        labels: { kind: r.kind, state: r.state },
        value: r.n,
      })),
      {
        name: "desk_jobs_oldest_due_seconds",
        type: "gauge",
        help: "How long the oldest due job has waited to run (0 when none waits)",
        value: oldestDueMs(db, now) / 1000,
      },
    ];
  };
}

const fileSize = (path: string) => (existsSync(path) ? statSync(path).size : 0);

/** The database file and its write-ahead log, sized at scrape time. */
export function databaseSource(path: string): MetricSource {
  return () => [
    { name: "desk_db_size_bytes", type: "gauge", help: "Size of the SQLite database file", value: fileSize(path) },
    {
      name: "desk_db_wal_bytes",
      type: "gauge",
      help: "Size of the SQLite write-ahead log",
      value: fileSize(`${path}-wal`),
    },
  ];
}
