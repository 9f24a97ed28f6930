import type { Db } from "../db/database";
import type { MetricSource } from "./metrics";

/** Jobs by kind and state, counted at scrape time. */
export function jobsSource(db: Db): MetricSource {
  const counts = db.$client.query<{ kind: string; state: string; n: number }, []>(
    "SELECT kind, state, count(*) AS n FROM jobs GROUP BY kind, state",
  );
  return () =>
    counts.all().map((r) => ({
      name: "desk_jobs",
      type: "gauge",
      help: "Jobs by kind and state",
      labels: { kind: r.kind, state: r.state },
      value: r.n,
    }));
}
