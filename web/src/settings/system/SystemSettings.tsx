import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api/client";
import type { SystemState } from "../../lib/api/types";
import { formatNumber, t } from "../../lib/i18n/i18n";
import { timeAgo } from "../../lib/ui/bits";
import { ErrorBox, errorText, Loading } from "../../lib/ui/states";
import { Sentence } from "../kit/Sentence";

const systemKeys = { current: ["system"] as const };

const bytes = (n: number | null) => {
  if (n === null) return "—";
  const units = ["b", "kb", "mb", "gb", "tb"];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : 1;
  return t("settings.systemSize", {
    value: formatNumber(value, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    unit: units[unit] ?? "tb",
  });
};

const duration = (seconds: number) => {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  return d
    ? t("settings.systemDurationDays", { d, h })
    : h
      ? t("settings.systemDurationHours", { h, m })
      : t("settings.systemDurationMinutes", { m });
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
      <h1>{t("settings.navSystem")}</h1>
      <p className="muted">Desk {system.version}</p>
      {system.instance && <Instance instance={system.instance} />}
      <h2>{t("settings.navMailboxes")}</h2>
      {system.mailboxes.length === 0 ? (
        <p className="muted">{t("settings.systemNoMailboxes")}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t("settings.assignmentTargetMailbox")}</th>
              <th>{t("settings.systemState")}</th>
              <th>{t("settings.systemLastSynced")}</th>
              <th>{t("settings.systemLastError")}</th>
            </tr>
          </thead>
          <tbody>
            {system.mailboxes.map((m) => (
              <tr key={m.id}>
                <td>
                  {m.name} <span className="muted">{m.email}</span>
                </td>
                <td>
                  <span className={`pill pill-${m.status}`}>{t("settings.mailboxStatus", { status: m.status })}</span>
                </td>
                <td className="muted">{m.last_synced_at ? timeAgo(m.last_synced_at) : "—"}</td>
                <td>{m.last_error || "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>{t("settings.systemRecentErrors")}</h2>
      {system.recent_errors.length === 0 ? (
        <p className="muted">{t("settings.systemNothingFailed")}</p>
      ) : (
        <ul className="stack" aria-label={t("settings.systemRecentErrors")}>
          {system.recent_errors.map((e) => (
            <li key={`${e.source}-${e.kind}-${e.at}`} className="card">
              <strong>
                {e.source === "job"
                  ? t("settings.systemJobError", { kind: e.kind })
                  : t("settings.systemMailboxError", { kind: e.kind })}
              </strong>{" "}
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
      <h2>{t("settings.systemThisServer")}</h2>
      <dl className="facts">
        <dt>{t("settings.systemUpFor")}</dt>
        <dd>{duration(instance.uptime_seconds)}</dd>
        <dt>{t("settings.systemDatabase")}</dt>
        <dd>
          {t("settings.systemDatabaseSize", {
            size: bytes(instance.database_bytes),
            wal: bytes(instance.wal_bytes),
          })}
        </dd>
        <dt>{t("settings.systemFreeDisk")}</dt>
        <dd>{bytes(instance.free_disk_bytes)}</dd>
        <dt>{t("settings.systemDataFolder")}</dt>
        <dd>
          <code>{instance.data_dir}</code>
        </dd>
        <dt>{t("settings.systemJobQueue")}</dt>
        <dd>
          {t("settings.systemJobs", {
            queued: jobs.queued,
            due: jobs.due,
            oldest: jobs.oldest_due_seconds,
            running: jobs.running,
            failed: jobs.failed_24h,
          })}
        </dd>
        <dt>{t("settings.systemReactions")}</dt>
        <dd>
          {behind.length === 0
            ? t("settings.systemConsumersCaughtUp", { count: instance.consumers.length })
            : t("settings.systemConsumersBehind", { behind: behind.length, count: instance.consumers.length })}
        </dd>
      </dl>
      {behind.length > 0 && (
        <table className="table" aria-label={t("settings.systemConsumersBehindTable")}>
          <thead>
            <tr>
              <th scope="col">{t("settings.systemConsumer")}</th>
              <th scope="col">{t("settings.systemEventsBehind")}</th>
              <th scope="col">{t("settings.systemOldestWaiting")}</th>
            </tr>
          </thead>
          <tbody>
            {behind.map((c) => (
              <tr key={c.name}>
                <td>
                  <code>{c.name}</code>
                </td>
                <td>{formatNumber(c.events_behind)}</td>
                <td>{t("settings.seconds", { s: c.seconds_behind })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>{t("settings.systemBackups")}</h2>
      <p>
        {backups.interval_seconds === null ? (
          t("settings.systemBackupsOff")
        ) : (
          <Sentence
            id="settings.systemBackupsEvery"
            values={{ interval: duration(backups.interval_seconds), keep: backups.keep }}
            nodes={{ dir: <code>{backups.dir}</code> }}
          />
        )}
      </p>
      <div className="actions">
        <button type="button" className="btn" onClick={() => backup.mutate()} disabled={backup.isPending}>
          {t("settings.systemBackUpNow")}
        </button>
        {backup.isSuccess && <span role="status">{t("settings.systemBackupQueued")}</span>}
        {backup.isError && <span className="form-error">{errorText(backup.error)}</span>}
      </div>
      {backups.runs.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th>{t("settings.systemStarted")}</th>
              <th>{t("settings.systemResult")}</th>
              <th>{t("settings.systemSizeColumn")}</th>
              <th>{t("settings.systemArchive")}</th>
            </tr>
          </thead>
          <tbody>
            {backups.runs.map((r) => (
              <tr key={r.id}>
                <td className="muted">
                  {timeAgo(r.started_at)} {t("settings.systemBackupTrigger", { trigger: r.trigger })}
                </td>
                <td>
                  <span className={`pill pill-${r.status}`}>
                    {t("settings.systemBackupStatus", { status: r.status })}
                  </span>
                  {r.error && <div className="small">{r.error}</div>}
                </td>
                <td>{bytes(r.size_bytes)}</td>
                <td>
                  <code>{r.file}</code>
                  {r.pruned_at && <span className="muted small"> {t("settings.systemPruned")}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
