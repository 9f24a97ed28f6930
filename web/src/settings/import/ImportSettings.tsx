import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../../lib/api/client";
import type { components } from "../../lib/api-schema";
import { timeAgo } from "../../lib/ui/bits";
import { Field, FormError } from "../../lib/ui/form";
import { Empty, ErrorBox, errorText, Loading } from "../../lib/ui/states";
import {
  type CsvDryRun,
  CsvDryRunSummary,
  type CsvKind,
  type CsvMapping,
  CsvMappingStep,
  unmappedRequired,
} from "./CsvImport";
import { importsKeys } from "./imports.queries";

type Import = components["schemas"]["Import"];
type Check = { ok: boolean; totals: Record<string, number>; message: string | null };
type Source = "zendesk" | "freshdesk" | "helpscout" | "imap" | "csv-contacts" | "csv-companies";
type ApiSource = "zendesk" | "freshdesk" | "helpscout" | "imap";
const API_SOURCES: readonly string[] = ["zendesk", "freshdesk", "helpscout", "imap"];
const SOURCE_NAMES: Record<string, string> = {
  zendesk: "Zendesk",
  freshdesk: "Freshdesk",
  helpscout: "Help Scout",
  imap: "Mailbox (IMAP)",
  csv: "CSV file",
};

/** A CSV in progress: the file, its columns, the chosen mapping and its dry run (null until run for this mapping). */
type CsvState = { file: File; preview: CsvDryRun; mapping: CsvMapping; result: CsvDryRun | null; missing: string[] };

function csvUpload(kind: CsvKind, file: File | null, mapping: CsvMapping | null, dryRun: boolean): FormData {
  const upload = new FormData();
  upload.set("source", "csv");
  upload.set("kind", kind);
  if (file) upload.set("file", file);
  if (mapping) upload.set("mapping", JSON.stringify(Object.fromEntries(Object.entries(mapping).filter(([, h]) => h))));
  if (dryRun) upload.set("dry_run", "true");
  return upload;
}

const PHASES: Record<string, string> = {
  queued: "Waiting to start",
  companies: "Organizations",
  people: "Users",
  tickets: "Tickets",
  done: "Done",
};

/** Zendesk options from the form, as POST /v1/imports and /v1/imports/check take them. */
function zendeskBody(form: HTMLFormElement) {
  const data = new FormData(form);
  const baseUrl = String(data.get("base_url") ?? "").trim();
  return {
    source: "zendesk",
    options: {
      subdomain: String(data.get("subdomain") ?? "").trim(),
      email: String(data.get("email") ?? "").trim(),
      api_token: String(data.get("api_token") ?? ""),
      ...(baseUrl ? { base_url: baseUrl } : {}),
    },
  };
}

/** The options of Freshdesk and Help Scout from the form: their fields are named as the options are. */
const SOURCE_FIELDS: Record<Exclude<ApiSource, "zendesk" | "imap">, string[]> = {
  freshdesk: ["domain", "api_key"],
  helpscout: ["app_id", "app_secret"],
};

function sourceBody(source: ApiSource, form: HTMLFormElement) {
  if (source === "zendesk") return zendeskBody(form);
  const data = new FormData(form);
  if (source === "imap") {
    const folders = String(data.get("folders") ?? "")
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    return {
      source,
      options: {
        host: String(data.get("host") ?? "").trim(),
        port: Number(data.get("port") ?? 993),
        tls: String(data.get("tls") ?? "tls"),
        username: String(data.get("username") ?? "").trim(),
        password: String(data.get("password") ?? ""),
        ...(folders.length ? { folders } : {}),
      },
    };
  }
  const options: Record<string, string> = {};
  for (const name of SOURCE_FIELDS[source]) options[name] = String(data.get(name) ?? "").trim();
  const baseUrl = String(data.get("base_url") ?? "").trim();
  if (baseUrl) options.base_url = baseUrl;
  return { source, options };
}

function Progress({ job }: { job: Import }) {
  const { phase, done, total } = job.progress;
  const label = PHASES[phase] ?? phase;
  return (
    <div className="import-progress">
      <span>
        {label}
        {job.status === "running" ? ` · ${done}${total ? ` of ${total}` : ""}` : ""}
      </span>
      {job.status === "running" && total ? (
        <progress max={total} value={Math.min(done, total)} aria-label={`${label}: ${done} of ${total}`} />
      ) : null}
    </div>
  );
}

function Counts({ job }: { job: Import }) {
  const c = job.counts;
  const parts: Array<[number, string]> = [
    [c.tickets, "tickets"],
    [c.messages, "messages"],
    [c.attachments, "attachments"],
    [c.contacts, "contacts"],
    [c.companies, "companies"],
    [c.users, "agents"],
    // A CSV skips rows repeating an earlier one; a vendor import skips records unchanged since the last run.
    [c.skipped, job.source === "csv" ? "skipped" : "unchanged"],
    [c.failed, "failed"],
  ];
  return <span className="small">{parts.map(([n, what]) => `${n} ${what}`).join(" · ")}</span>;
}

export default function ImportSettings() {
  const client = useQueryClient();
  const [source, setSource] = useState<Source>("zendesk");
  const [check, setCheck] = useState<Check | null>(null);
  const [csv, setCsv] = useState<CsvState | null>(null);
  const list = useQuery({
    queryKey: importsKeys.list,
    queryFn: async () => (await api<{ data: Import[] }>("/imports?limit=20")).data,
  });
  const refresh = () => client.invalidateQueries({ queryKey: importsKeys.list });
  const start = useMutation({
    mutationFn: (input: { body?: unknown; form?: FormData }) =>
      api<Import>("/imports", input.form ? { form: input.form } : { body: input.body }),
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: (body: unknown) => api<Check>("/imports/check", { body }),
    onSuccess: setCheck,
  });
  const dryRun = useMutation({ mutationFn: (form: FormData) => api<CsvDryRun>("/imports", { form }) });
  const cancel = useMutation({
    mutationFn: (id: string) => api<Import>(`/imports/${id}/cancel`, { method: "POST" }),
    onSuccess: refresh,
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    if (API_SOURCES.includes(source)) {
      start.mutate({ body: sourceBody(source as ApiSource, form) }, { onSuccess: () => setCheck(null) });
      return;
    }
    const kind: CsvKind = source === "csv-contacts" ? "contacts" : "companies";
    if (!csv) {
      const file = new FormData(form).get("file");
      if (!(file instanceof File && file.size > 0)) {
        start.mutate({ form: csvUpload(kind, null, null, false) });
        return;
      }
      dryRun.mutate(csvUpload(kind, file, null, true), {
        onSuccess: (preview) =>
          setCsv({ file, preview, mapping: preview.suggested_mapping, result: null, missing: [] }),
      });
      return;
    }
    const missing = unmappedRequired(kind, csv.mapping);
    if (missing.length) return setCsv({ ...csv, missing });
    if (!csv.result) {
      dryRun.mutate(csvUpload(kind, csv.file, csv.mapping, true), {
        onSuccess: (result) => setCsv({ ...csv, result }),
      });
      return;
    }
    start.mutate(
      { form: csvUpload(kind, csv.file, csv.mapping, false) },
      {
        onSuccess: () => {
          form.reset();
          setCsv(null);
        },
      },
    );
  };
  const csvStep = !csv ? "Read columns" : !csv.result ? "Dry run" : "Import";

  return (
    <div className="settings-page">
      <h1>Import</h1>
      <p className="muted">
        Bring your history from another help desk. Imported tickets keep their times, replies, notes and files; nobody
        is mailed and no automation runs. Run an import again for the same account to bring only what changed since.
      </p>
      <form className="stack narrow card" onSubmit={submit} noValidate aria-label="New import">
        <Field label="Source" name="source" error={start.error}>
          <select
            name="source"
            value={source}
            onChange={(e) => {
              setSource(e.target.value as Source);
              setCheck(null);
              setCsv(null);
              dryRun.reset();
              start.reset();
            }}
          >
            <option value="zendesk">Zendesk</option>
            <option value="freshdesk">Freshdesk</option>
            <option value="helpscout">Help Scout</option>
            <option value="imap">Mailbox history (IMAP)</option>
            <option value="csv-contacts">CSV file: contacts</option>
            <option value="csv-companies">CSV file: companies</option>
          </select>
        </Field>
        {source === "zendesk" ? (
          <>
            <div className="row2">
              <Field
                label="Subdomain"
                name="options.subdomain"
                error={start.error ?? test.error}
                hint="acme for acme.zendesk.com"
              >
                <input name="subdomain" autoComplete="off" required />
              </Field>
              <Field label="Admin email" name="options.email" error={start.error ?? test.error}>
                <input name="email" type="email" autoComplete="off" required />
              </Field>
            </div>
            <Field
              label="API token"
              name="options.api_token"
              error={start.error ?? test.error}
              hint="Admin Center → Apps and integrations → Zendesk API. Stored encrypted and deleted when the import ends."
            >
              <input name="api_token" type="password" autoComplete="off" required />
            </Field>
            <Field
              label="API address (optional)"
              name="options.base_url"
              error={start.error ?? test.error}
              hint="Only for a proxy in front of Zendesk"
            >
              <input name="base_url" type="url" placeholder="https://acme.zendesk.com" />
            </Field>
          </>
        ) : source === "freshdesk" ? (
          <>
            <Field
              label="Freshdesk domain"
              name="options.domain"
              error={start.error ?? test.error}
              hint="acme for acme.freshdesk.com"
            >
              <input name="domain" autoComplete="off" required />
            </Field>
            <Field
              label="API key"
              name="options.api_key"
              error={start.error ?? test.error}
              hint="Profile settings → Your API Key. Stored encrypted and deleted when the import ends."
            >
              <input name="api_key" type="password" autoComplete="off" required />
            </Field>
            <Field
              label="API address (optional)"
              name="options.base_url"
              error={start.error ?? test.error}
              hint="Only for a proxy in front of Freshdesk"
            >
              <input name="base_url" type="url" placeholder="https://acme.freshdesk.com" />
            </Field>
          </>
        ) : source === "helpscout" ? (
          <>
            <Field
              label="App ID"
              name="options.app_id"
              error={start.error ?? test.error}
              hint="Your Profile → My Apps → Create App"
            >
              <input name="app_id" autoComplete="off" required />
            </Field>
            <Field
              label="App secret"
              name="options.app_secret"
              error={start.error ?? test.error}
              hint="Stored encrypted and deleted when the import ends."
            >
              <input name="app_secret" type="password" autoComplete="off" required />
            </Field>
            <Field
              label="API address (optional)"
              name="options.base_url"
              error={start.error ?? test.error}
              hint="Only for a proxy in front of Help Scout"
            >
              <input name="base_url" type="url" placeholder="https://api.helpscout.net" />
            </Field>
          </>
        ) : source === "imap" ? (
          <>
            <div className="row2">
              <Field label="IMAP server" name="options.host" error={start.error ?? test.error} hint="imap.example.com">
                <input name="host" autoComplete="off" required />
              </Field>
              <Field label="Port" name="options.port" error={start.error ?? test.error}>
                <input name="port" type="number" min={1} max={65535} defaultValue={993} required />
              </Field>
            </div>
            <Field label="Security" name="options.tls" error={start.error ?? test.error}>
              <select name="tls" defaultValue="tls">
                <option value="tls">TLS</option>
                <option value="starttls">STARTTLS</option>
                <option value="none">None</option>
              </select>
            </Field>
            <div className="row2">
              <Field label="Username" name="options.username" error={start.error ?? test.error}>
                <input name="username" autoComplete="off" required />
              </Field>
              <Field
                label="Password"
                name="options.password"
                error={start.error ?? test.error}
                hint="Stored encrypted and deleted when the import ends."
              >
                <input name="password" type="password" autoComplete="off" required />
              </Field>
            </div>
            <Field
              label="Folders (optional)"
              name="options.folders"
              error={start.error ?? test.error}
              hint="Comma-separated; INBOX and the Sent folder when empty"
            >
              <input name="folders" autoComplete="off" />
            </Field>
          </>
        ) : (
          <>
            <Field
              label="File"
              name="file"
              error={start.error ?? dryRun.error}
              hint="UTF-8 with a header row; you match its columns to Desk's fields next, and see a dry run before anything is written"
            >
              <input
                name="file"
                type="file"
                accept=".csv,text/csv"
                required
                onChange={() => {
                  setCsv(null);
                  dryRun.reset();
                }}
              />
            </Field>
            {csv && (
              <CsvMappingStep
                kind={source === "csv-contacts" ? "contacts" : "companies"}
                preview={csv.preview}
                mapping={csv.mapping}
                missing={csv.missing}
                onChange={(mapping) => setCsv({ ...csv, mapping, result: null, missing: [] })}
              />
            )}
            {csv?.result && <CsvDryRunSummary result={csv.result} />}
          </>
        )}
        {check && (
          <div className={check.ok ? "muted" : "form-error"} role="status" data-testid="import-check">
            {check.ok && Object.keys(check.totals).length === 0
              ? "Connected."
              : check.ok
                ? `Connected. ${check.totals.tickets ?? 0} tickets, ${check.totals.people ?? 0} users and ${check.totals.companies ?? 0} organizations to bring.`
                : `Could not connect: ${check.message}`}
          </div>
        )}
        <FormError
          error={start.error ?? test.error ?? dryRun.error}
          fields={[
            "options.subdomain",
            "options.email",
            "options.api_token",
            "options.domain",
            "options.api_key",
            "options.app_id",
            "options.app_secret",
            "options.host",
            "options.port",
            "options.tls",
            "options.username",
            "options.password",
            "options.folders",
            "options.base_url",
            "file",
            "mapping",
            "dry_run",
          ]}
        />
        <div className="actions">
          {API_SOURCES.includes(source) && (
            <button
              type="button"
              className="btn"
              disabled={test.isPending}
              onClick={(e) => {
                const form = e.currentTarget.form;
                if (form) test.mutate(sourceBody(source as ApiSource, form));
              }}
            >
              {test.isPending ? "Testing…" : "Test connection"}
            </button>
          )}
          <button
            type="submit"
            className="btn btn-primary"
            disabled={start.isPending || dryRun.isPending || Boolean(csv?.result?.problems.length)}
          >
            {API_SOURCES.includes(source) ? "Start import" : csvStep}
          </button>
        </div>
      </form>
      <h2>Imports</h2>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <Empty title="No imports yet" />
      ) : (
        <table className="table" aria-label="Imports">
          <thead>
            <tr>
              <th>Source</th>
              <th>Status</th>
              <th>Progress</th>
              <th>Started</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data.map((job) => (
              <tr key={job.id} data-testid="import-row">
                <td>{SOURCE_NAMES[job.source] ?? job.source}</td>
                <td>
                  <span className={`pill pill-${job.status}`}>{job.status}</span>
                </td>
                <td>
                  <Progress job={job} />
                  <Counts job={job} />
                  {job.errors.length > 0 && (
                    <details>
                      <summary>
                        {job.errors.length} {job.errors.length === 1 ? "problem" : "problems"}
                      </summary>
                      <ul className="small">
                        {job.errors.map((err, i) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: errors have no id and never reorder
                          <li key={i}>
                            {err.record}: {err.message}
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                </td>
                <td className="muted">{timeAgo(job.created_at)}</td>
                <td className="right">
                  {(job.status === "running" || job.status === "queued") && (
                    <button
                      type="button"
                      className="btn btn-small btn-danger"
                      onClick={() => confirm("Cancel this import? What it brought stays.") && cancel.mutate(job.id)}
                    >
                      Cancel
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cancel.isError && <div className="form-error">{errorText(cancel.error)}</div>}
    </div>
  );
}
