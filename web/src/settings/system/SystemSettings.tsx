import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api/client";
import type { SystemState } from "../../lib/api/types";
import { timeAgo } from "../../lib/ui/bits";
import { ErrorBox, errorText, Loading } from "../../lib/ui/states";

const systemKeys = { current: ["system"] as const };

const bytes = (n: number | null) => {
  if (n === null) return "—";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
};

const duration = (seconds: number) => {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min`;
};

/** Version, mailboxes and recent errors for admins; disk, job queue and backups for the operator. */
export default function SystemSettings() {
  const state = useQuery({
    queryKey: systemKeys.current,
    queryFn: () => api<SystemState>("/system"),
    // Quicker while a backup is asked for or running, so its result shows without a reload.
    refetchInterval: (query) =>
      query.state.data?.instance?.backups.runs.some((r) => r.status === "running") ? 2_000 : 15_000,
  });
  if (state.isPending) return <Loading />;
  if (state.isError) return <ErrorBox error={state.error} retry={() => state.refetch()} />;
  const system = state.data;
  return (
    <div className="settings-page">
      <h1>System</h1>
      <p className="muted">Desk {system.version}</p>
      {system.instance && <Instance instance={system.instance} />}
      <h2>Mailboxes</h2>
      {system.mailboxes.length === 0 ? (
        <p className="muted">No mailboxes.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Mailbox</th>
              <th>State</th>
              <th>Last synced</th>
              <th>Last error</th>
            </tr>
          </thead>
          <tbody>
            {system.mailboxes.map((m) => (
              <tr key={m.id}>
                <td>
                  {m.name} <span className="muted">{m.email}</span>
                </td>
                <td>
                  <span className={`pill pill-${m.status}`}>{m.status}</span>
                </td>
                <td className="muted">{m.last_synced_at ? timeAgo(m.last_synced_at) : "—"}</td>
                <td>{m.last_error || "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Recent errors</h2>
      {system.recent_errors.length === 0 ? (
        <p className="muted">Nothing failed recently.</p>
      ) : (
        <ul className="stack" aria-label="Recent errors">
          {system.recent_errors.map((e) => (
            <li key={`${e.source}-${e.kind}-${e.at}`} className="card">
              <strong>{e.source === "job" ? `Job ${e.kind}` : `Mailbox ${e.kind}`}</strong>{" "}
              {e.at && <span className="muted small">{timeAgo(e.at)}</span>}
              <div className="small">{e.error}</div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Instance({ instance }: { instance: NonNullable<SystemState["instance"]> }) {
  const client = useQueryClient();
  const backup = useMutation({
    mutationFn: () => api("/system/backups", { body: {} }),
    // The backup runs as a job: look again shortly, then the running row keeps the page polling.
    onSuccess: () => {
      for (const ms of [500, 2_000])
        setTimeout(() => void client.invalidateQueries({ queryKey: systemKeys.current }), ms);
    },
  });
  const { jobs, backups } = instance;
  // Caught-up consumers are the normal case: only the ones behind get a row.
  const behind = instance.consumers.filter((c) => c.events_behind > 0);
  return (
    <>
      <h2>This server</h2>
      <dl className="facts">
        <dt>Up for</dt>
        <dd>{duration(instance.uptime_seconds)}</dd>
        <dt>Database</dt>
        <dd>
          {bytes(instance.database_bytes)} (write-ahead log {bytes(instance.wal_bytes)})
        </dd>
        <dt>Free disk</dt>
        <dd>{bytes(instance.free_disk_bytes)}</dd>
        <dt>Data folder</dt>
        <dd>
          <code>{instance.data_dir}</code>
        </dd>
        <dt>Job queue</dt>
        <dd>
          {jobs.queued} queued ({jobs.due} due, oldest waiting {jobs.oldest_due_seconds} s), {jobs.running} running,{" "}
          {jobs.failed_24h} failed in 24 h
        </dd>
        <dt>Reactions</dt>
        <dd>
          {behind.length === 0
            ? `All ${instance.consumers.length} event consumers are caught up`
            : `${behind.length} of ${instance.consumers.length} event consumers are behind`}
        </dd>
      </dl>
      {behind.length > 0 && (
        <table className="table" aria-label="Event consumers behind">
          <thead>
            <tr>
              <th scope="col">Consumer</th>
              <th scope="col">Events behind</th>
              <th scope="col">Oldest waiting</th>
            </tr>
          </thead>
          <tbody>
            {behind.map((c) => (
              <tr key={c.name}>
                <td>
                  <code>{c.name}</code>
                </td>
                <td>{c.events_behind}</td>
                <td>{c.seconds_behind} s</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Backups</h2>
      <p>
        {backups.interval_seconds === null
          ? "Scheduled backups are off (DESK_BACKUP_INTERVAL=off)."
          : `Every ${duration(backups.interval_seconds)}, keeping the newest ${backups.keep}, in `}
        {backups.interval_seconds !== null && <code>{backups.dir}</code>}
      </p>
      <div className="actions">
        <button type="button" className="btn" onClick={() => backup.mutate()} disabled={backup.isPending}>
          Back up now
        </button>
        {backup.isSuccess && <span role="status">Backup queued.</span>}
        {backup.isError && <span className="form-error">{errorText(backup.error)}</span>}
      </div>
      {backups.runs.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>Started</th>
              <th>Result</th>
              <th>Size</th>
              <th>Archive</th>
            </tr>
          </thead>
          <tbody>
            {backups.runs.map((r) => (
              <tr key={r.id}>
                <td className="muted">
                  {timeAgo(r.started_at)} ({r.trigger})
                </td>
                <td>
                  <span className={`pill pill-${r.status}`}>{r.status}</span>
                  {r.error && <div className="small">{r.error}</div>}
                </td>
                <td>{bytes(r.size_bytes)}</td>
                <td>
                  <code>{r.file}</code>
                  {r.pruned_at && <span className="muted small"> (deleted by retention)</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
