import { existsSync, statSync } from "node:fs";
import type { Db } from "../db/database";
import { consumerLag, type ConsumerRunner } from "../events/consumers";
import { jobCountsByKindAndState, oldestDueMs } from "../jobs/jobs.stats";
import type { Clock } from "../lib/clock";
import type { MetricSource, Sample } from "./metrics";

/** Jobs by kind and state, counted at scrape time. */
export function jobsSource(db: Db, clock: Clock): MetricSource {
  return async () => {
    const now = clock.now();
    return [
      ...(await jobCountsByKindAndState(db)).map((r) => ({
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
        value: (await oldestDueMs(db, now)) / 1000,
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

/**
 * Each durable consumer's lag (events after its cursor, and how long the oldest has waited) and its
 * work since start. Labelled by the running consumers' names only (a fixed set from the modules),
 * never by a cursor row a removed consumer left behind.
 */
export function consumersSource(db: Db, clock: Clock, runner: ConsumerRunner): MetricSource {
  return async () => {
    const tallies = runner.stats();
    const lag = await consumerLag(
      db,
      clock.now(),
      tallies.map((t) => t.name),
    );
    const samples: Sample[] = [
      ...lag.flatMap((l): Sample[] => [
        {
          name: "desk_consumer_lag_events",
          type: "gauge",
          help: "Stored events after the consumer's cursor",
          labels: { consumer: l.name },
          value: l.eventsBehind,
        },
        {
          name: "desk_consumer_lag_seconds",
          type: "gauge",
          help: "How long the oldest event after the consumer's cursor has waited (0 when caught up)",
          labels: { consumer: l.name },
          value: l.secondsBehind,
        },
      ]),
      ...tallies.flatMap((t): Sample[] => [
        {
          name: "desk_consumer_events_total",
          type: "counter",
          help: "Events the consumer read since start, by outcome (handled, or passed over as nothing to do)",
          labels: { consumer: t.name, outcome: "handled" },
          value: t.handled,
        },
        {
          name: "desk_consumer_events_total",
          type: "counter",
          help: "Events the consumer read since start, by outcome (handled, or passed over as nothing to do)",
          labels: { consumer: t.name, outcome: "skipped" },
          value: t.skipped,
        },
        {
          name: "desk_consumer_seconds_total",
          type: "counter",
          help: "Time the consumer spent reading and handling events since start",
          labels: { consumer: t.name },
          value: t.ms / 1000,
        },
      ]),
    ];
    return samples;
  };
}
