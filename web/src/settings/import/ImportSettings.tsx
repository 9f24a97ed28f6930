import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../../lib/api/client";
import type { components } from "../../lib/api-schema";
import { type MessageKey, t } from "../../lib/i18n/i18n";
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
/** Vendors go by their brand names in every language; the other sources are described in the member's. */
const BRANDS: Record<string, string> = { zendesk: "Zendesk", freshdesk: "Freshdesk", helpscout: "Help Scout" };
const sourceName = (source: string): string =>
  BRANDS[source] ??
  (source === "imap" ? t("workflow.importSourceImap") : source === "csv" ? t("workflow.importSourceCsv") : source);

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

const PHASES: Record<string, MessageKey> = {
  queued: "workflow.phaseQueued",
  companies: "workflow.phaseCompanies",
  people: "workflow.phasePeople",
  tickets: "workflow.phaseTickets",
  done: "workflow.phaseDone",
};

const STATUSES: Record<Import["status"], MessageKey> = {
  queued: "workflow.importStatusQueued",
  running: "workflow.importStatusRunning",
  succeeded: "workflow.importStatusSucceeded",
  failed: "workflow.importStatusFailed",
  canceled: "workflow.importStatusCanceled",
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
  const key = PHASES[phase];
  const label = key ? t(key) : phase;
  return (
    <div className="import-progress">
      <span>
        {job.status !== "running"
          ? label
          : total
            ? t("workflow.progressRunningOf", { phase: label, done, total })
            : t("workflow.progressRunning", { phase: label, done })}
      </span>
      {job.status === "running" && total ? (
        <progress
          max={total}
          value={Math.min(done, total)}
          aria-label={t("workflow.progressLabel", { phase: label, done, total })}
        />
      ) : null}
    </div>
  );
}

function Counts({ job }: { job: Import }) {
  const c = job.counts;
  const parts: Array<[number, MessageKey]> = [
    [c.tickets, "workflow.countTickets"],
    [c.messages, "workflow.countMessages"],
    [c.attachments, "workflow.countAttachments"],
    [c.contacts, "workflow.countContacts"],
    [c.companies, "workflow.countCompanies"],
    [c.users, "workflow.countAgents"],
    // A CSV skips rows repeating an earlier one; a vendor import skips records unchanged since the last run.
    [c.skipped, job.source === "csv" ? "workflow.countSkipped" : "workflow.countUnchanged"],
    [c.failed, "workflow.countFailed"],
  ];
  return <span className="small">{parts.map(([count, key]) => t(key, { count })).join(" · ")}</span>;
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
  const csvStep = !csv
    ? t("workflow.csvStepReadColumns")
    : !csv.result
      ? t("workflow.csvStepDryRun")
      : t("workflow.csvStepImport");

  return (
    <div className="settings-page">
      <h1>{t("workflow.importTitle")}</h1>
      <p className="muted">{t("workflow.importIntro")}</p>
      <form className="stack narrow card" onSubmit={submit} noValidate aria-label={t("workflow.newImport")}>
        <Field label={t("workflow.labelSource")} name="source" error={start.error}>
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
            <option value="imap">{t("workflow.sourceImapHistory")}</option>
            <option value="csv-contacts">{t("workflow.sourceCsvContacts")}</option>
            <option value="csv-companies">{t("workflow.sourceCsvCompanies")}</option>
          </select>
        </Field>
        {source === "zendesk" ? (
          <>
            <div className="row2">
              <Field
                label={t("workflow.labelSubdomain")}
                name="options.subdomain"
                error={start.error ?? test.error}
                hint={t("workflow.hintAccountName", { name: "acme", host: "acme.zendesk.com" })}
              >
                <input name="subdomain" autoComplete="off" required />
              </Field>
              <Field label={t("workflow.labelAdminEmail")} name="options.email" error={start.error ?? test.error}>
                <input name="email" type="email" autoComplete="off" required />
              </Field>
            </div>
            <Field
              label={t("workflow.labelApiToken")}
              name="options.api_token"
              error={start.error ?? test.error}
              hint={t("workflow.hintZendeskToken")}
            >
              <input name="api_token" type="password" autoComplete="off" required />
            </Field>
            <Field
              label={t("workflow.labelApiAddress")}
              name="options.base_url"
              error={start.error ?? test.error}
              hint={t("workflow.hintProxy", { product: "Zendesk" })}
            >
              <input name="base_url" type="url" placeholder="https://acme.zendesk.com" />
            </Field>
          </>
        ) : source === "freshdesk" ? (
          <>
            <Field
              label={t("workflow.labelFreshdeskDomain")}
              name="options.domain"
              error={start.error ?? test.error}
              hint={t("workflow.hintAccountName", { name: "acme", host: "acme.freshdesk.com" })}
            >
              <input name="domain" autoComplete="off" required />
            </Field>
            <Field
              label={t("workflow.labelApiKey")}
              name="options.api_key"
              error={start.error ?? test.error}
              hint={t("workflow.hintFreshdeskKey")}
            >
              <input name="api_key" type="password" autoComplete="off" required />
            </Field>
            <Field
              label={t("workflow.labelApiAddress")}
              name="options.base_url"
              error={start.error ?? test.error}
              hint={t("workflow.hintProxy", { product: "Freshdesk" })}
            >
              <input name="base_url" type="url" placeholder="https://acme.freshdesk.com" />
            </Field>
          </>
        ) : source === "helpscout" ? (
          <>
            <Field
              label={t("workflow.labelAppId")}
              name="options.app_id"
              error={start.error ?? test.error}
              hint={t("workflow.hintHelpScoutApp")}
            >
              <input name="app_id" autoComplete="off" required />
            </Field>
            <Field
              label={t("workflow.labelAppSecret")}
              name="options.app_secret"
              error={start.error ?? test.error}
              hint={t("workflow.hintStoredEncrypted")}
            >
              <input name="app_secret" type="password" autoComplete="off" required />
            </Field>
            <Field
              label={t("workflow.labelApiAddress")}
              name="options.base_url"
              error={start.error ?? test.error}
              hint={t("workflow.hintProxy", { product: "Help Scout" })}
            >
              <input name="base_url" type="url" placeholder="https://api.helpscout.net" />
            </Field>
          </>
        ) : source === "imap" ? (
          <>
            <div className="row2">
              <Field
                label={t("workflow.labelImapServer")}
                name="options.host"
                error={start.error ?? test.error}
                hint="imap.example.com"
              >
                <input name="host" autoComplete="off" required />
              </Field>
              <Field label={t("workflow.labelPort")} name="options.port" error={start.error ?? test.error}>
                <input name="port" type="number" min={1} max={65535} defaultValue={993} required />
              </Field>
            </div>
            <Field label={t("workflow.labelSecurity")} name="options.tls" error={start.error ?? test.error}>
              <select name="tls" defaultValue="tls">
                <option value="tls">TLS</option>
                <option value="starttls">STARTTLS</option>
                <option value="none">{t("workflow.securityNone")}</option>
              </select>
            </Field>
            <div className="row2">
              <Field label={t("workflow.labelUsername")} name="options.username" error={start.error ?? test.error}>
                <input name="username" autoComplete="off" required />
              </Field>
              <Field
                label={t("workflow.labelPassword")}
                name="options.password"
                error={start.error ?? test.error}
                hint={t("workflow.hintStoredEncrypted")}
              >
                <input name="password" type="password" autoComplete="off" required />
              </Field>
            </div>
            <Field
              label={t("workflow.labelFolders")}
              name="options.folders"
              error={start.error ?? test.error}
              hint={t("workflow.hintFolders")}
            >
              <input name="folders" autoComplete="off" />
            </Field>
          </>
        ) : (
          <>
            <Field
              label={t("workflow.labelFile")}
              name="file"
              error={start.error ?? dryRun.error}
              hint={t("workflow.hintCsvFile")}
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
              ? t("workflow.checkConnected")
              : check.ok
                ? t("workflow.checkConnectedTotals", {
                    tickets: check.totals.tickets ?? 0,
                    people: check.totals.people ?? 0,
                    companies: check.totals.companies ?? 0,
                  })
                : t("workflow.checkFailed", { message: check.message ?? "" })}
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
              {test.isPending ? t("workflow.testing") : t("workflow.testConnection")}
            </button>
          )}
          <button
            type="submit"
            className="btn btn-primary"
            disabled={start.isPending || dryRun.isPending || Boolean(csv?.result?.problems.length)}
          >
            {API_SOURCES.includes(source) ? t("workflow.startImport") : csvStep}
          </button>
        </div>
      </form>
      <h2>{t("workflow.importsHeading")}</h2>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <Empty title={t("workflow.importsEmpty")} />
      ) : (
        <table className="table" aria-label={t("workflow.importsHeading")}>
          <thead>
            <tr>
              <th>{t("workflow.columnSource")}</th>
              <th>{t("workflow.columnStatus")}</th>
              <th>{t("workflow.columnProgress")}</th>
              <th>{t("workflow.columnStarted")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data.map((job) => (
              <tr key={job.id} data-testid="import-row">
                <td>{sourceName(job.source)}</td>
                <td>
                  <span className={`pill pill-${job.status}`}>{t(STATUSES[job.status])}</span>
                </td>
                <td>
                  <Progress job={job} />
                  <Counts job={job} />
                  {job.errors.length > 0 && (
                    <details>
                      <summary>{t("workflow.importProblems", { count: job.errors.length })}</summary>
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
                      onClick={() => confirm(t("workflow.cancelImportQuestion")) && cancel.mutate(job.id)}
                    >
                      {t("workflow.cancelImport")}
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
