/**
 * Process-wide Prometheus metrics: small functions any subsystem calls (the HTTP observer, webhook
 * deliveries, the SMTP receiver, the gateway), rendered as text by GET /metrics.
 */

import { UNMATCHED_ROUTE } from "../http/request-meta";

type Labels = Record<string, string>;

/** Methods outside these share one label: a request line may carry any token as its method. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** One series' value, held by reference so a hot path resolves it once and then only adds. */
type Cell = { value: number };

const counters = new Map<string, Map<string, Cell>>();
const gauges = new Map<string, Map<string, Cell>>();
const help = new Map<string, { type: "counter" | "gauge" | "histogram"; text: string }>();

const labelKey = (labels: Labels) =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]!.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`)
    .join(",");

function describe(name: string, type: "counter" | "gauge" | "histogram", text: string): void {
  help.set(name, { type, text });
}

function cellOf(family: Map<string, Map<string, Cell>>, name: string, key: string): Cell {
  let series = family.get(name);
  if (!series) {
    series = new Map();
    family.set(name, series);
  }
  let cell = series.get(key);
  if (!cell) {
    cell = { value: 0 };
    series.set(key, cell);
  }
  return cell;
}

export function incrementCounter(name: string, labels: Labels = {}, by = 1): void {
  cellOf(counters, name, labelKey(labels)).value += by;
}

export function addToGauge(name: string, labels: Labels = {}, by = 1): void {
  cellOf(gauges, name, labelKey(labels)).value += by;
}

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** `counts[i]` holds the observations falling in bucket i alone (the last slot: above every bound); rendering sums them up. */
type Histogram = { counts: number[]; sum: number; count: number };
const histograms = new Map<string, Map<string, Histogram>>();

export function observeHistogram(name: string, labels: Labels, seconds: number): void {
  observe(histogramOf(name, labelKey(labels)), seconds);
}

function histogramOf(name: string, key: string): Histogram {
  let series = histograms.get(name);
  if (!series) {
    series = new Map();
    histograms.set(name, series);
  }
  let h = series.get(key);
  if (!h) {
    h = { counts: new Array<number>(BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
    series.set(key, h);
  }
  return h;
}

function observe(h: Histogram, seconds: number): void {
  let bucket = 0;
  while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]!) bucket++;
  h.counts[bucket]!++;
  h.sum += seconds;
  h.count++;
}

describe("desk_http_requests_total", "counter", "HTTP requests by method, route and status");
describe("desk_http_request_duration_seconds", "histogram", "HTTP request latency by method and route");
describe(
  "desk_webhook_deliveries_total",
  "counter",
  "Webhook delivery attempts by outcome (succeeded, retried, failed)",
);
describe("desk_smtp_sessions_total", "counter", "SMTP sessions accepted by the embedded receiver");
describe("desk_realtime_sockets", "gauge", "WebSocket connections open on the gateway, by kind");
describe("desk_smtp_messages_total", "counter", "Messages offered to the SMTP receiver, by outcome");
describe("desk_imap_syncs_total", "counter", "IMAP mailbox syncs, by outcome");
describe("desk_db_checkpoint_seconds", "histogram", "WAL checkpoints that copied pages, by duration");
describe("desk_ai_calls_total", "counter", "Calls to the AI provider, by feature and outcome");

/** Ids and numbers in paths become `:id`, so routes stay a small label set. */
export function routeLabel(path: string): string {
  if (path === UNMATCHED_ROUTE) return path;
  if (!path.startsWith("/v1"))
    return path === "/healthz" || path === "/readyz" || path === "/metrics" || path === "/docs" || path === "/docs/"
      ? path
      : "(web)";
  return path
    .split("/")
    .map((s) => (/^[0-9a-f-]{16,}$/i.test(s) || /^\d+$/.test(s) || s.length > 40 ? ":id" : s))
    .join("/")
    .slice(0, 120);
}

/**
 * The series one (method, status, path) counts into, resolved once: building label keys, or even
 * one lookup string, on every request cost more than the counting (measured under load). Looked up
 * by nested maps so a request allocates nothing here. Bounded, since paths carry ids: when full it
 * starts over (the series themselves stay).
 */
type HttpSeries = { requests: Cell; duration: Histogram };
const httpSeries = new Map<string, Map<number, Map<string, HttpSeries>>>();
let httpSeriesCount = 0;
const HTTP_SERIES_MAX = 5000;

function httpSeriesOf(method: string, status: number, path: string): HttpSeries {
  const known = httpSeries.get(method)?.get(status)?.get(path);
  if (known) return known;
  if (httpSeriesCount >= HTTP_SERIES_MAX) {
    httpSeries.clear();
    httpSeriesCount = 0;
  }
  let byStatus = httpSeries.get(method);
  if (!byStatus) {
    byStatus = new Map();
    httpSeries.set(method, byStatus);
  }
  let byPath = byStatus.get(status);
  if (!byPath) {
    byPath = new Map();
    byStatus.set(status, byPath);
  }
  const route = routeLabel(path);
  const methodLabel = KNOWN_METHODS.has(method) ? method : "OTHER";
  const series: HttpSeries = {
    requests: cellOf(
      counters,
      "desk_http_requests_total",
      labelKey({ method: methodLabel, route, status: String(status) }),
    ),
    duration: histogramOf("desk_http_request_duration_seconds", labelKey({ method: methodLabel, route })),
  };
  byPath.set(path, series);
  httpSeriesCount++;
  return series;
}

export function recordHttpRequest(info: { method: string; route: string; status: number; ms: number }): void {
  const series = httpSeriesOf(info.method, info.status, info.route);
  series.requests.value++;
  observe(series.duration, info.ms / 1000);
}

export const recordWebhookDelivery = (outcome: "succeeded" | "retried" | "failed") =>
  incrementCounter("desk_webhook_deliveries_total", { outcome });

/** A WAL checkpoint that copied pages, and how long it took. */
export const recordCheckpoint = (seconds: number) => observeHistogram("desk_db_checkpoint_seconds", {}, seconds);

/** One IMAP sync of a mailbox: `ok`, or `failed` (connection, sign-in or protocol). */
export const recordImapSync = (outcome: "ok" | "failed") => incrementCounter("desk_imap_syncs_total", { outcome });

/** A message offered over SMTP: `accepted` (stored), `refused` (5xx) or `deferred` (4xx, the sender retries). */
export const recordSmtpMessage = (outcome: "accepted" | "refused" | "deferred") =>
  incrementCounter("desk_smtp_messages_total", { outcome });

/** One call to the AI provider: the feature (cost key), and `ok` or `failed`. */
export const recordAiCall = (feature: string, outcome: "ok" | "failed") =>
  incrementCounter("desk_ai_calls_total", { feature, outcome });

/** The mail receiver calls this once per accepted SMTP connection. */
export const countSmtpSession = () => incrementCounter("desk_smtp_sessions_total");

export const socketOpened = (kind: "agent" | "widget") => addToGauge("desk_realtime_sockets", { kind }, 1);
export const socketClosed = (kind: "agent" | "widget") => addToGauge("desk_realtime_sockets", { kind }, -1);

/** Reads a counter's current value (tests and benchmarks). */
export const counterValue = (name: string, labels: Labels = {}) =>
  counters.get(name)?.get(labelKey(labels))?.value ?? 0;

/** A source of series computed at scrape time (job counts, seq lag). */
export type Sample = { name: string; type: "counter" | "gauge"; help: string; labels?: Labels; value: number };
export type MetricSource = () => Sample[];

export function renderMetrics(sources: MetricSource[] = []): string {
  const lines: string[] = [];
  const head = (name: string, type: string, text: string) =>
    lines.push(`# HELP ${name} ${text}`, `# TYPE ${name} ${type}`);
  const series = (name: string, key: string, value: number) => lines.push(`${name}${key ? `{${key}}` : ""} ${value}`);
  for (const [name, values] of [...counters, ...gauges]) {
    const meta = help.get(name);
    head(name, meta?.type ?? "counter", meta?.text ?? name);
    for (const [key, cell] of values) series(name, key, cell.value);
  }
  for (const [name, values] of histograms) {
    head(name, "histogram", help.get(name)?.text ?? name);
    for (const [key, h] of values) {
      const prefix = key ? `${key},` : "";
      let cumulative = 0;
      for (const [i, b] of BUCKETS.entries()) {
        cumulative += h.counts[i]!;
        lines.push(`${name}_bucket{${prefix}le="${b}"} ${cumulative}`);
      }
      lines.push(`${name}_bucket{${prefix}le="+Inf"} ${h.count}`);
      series(`${name}_sum`, key, Number(h.sum.toFixed(6)));
      series(`${name}_count`, key, h.count);
    }
  }
  const grouped = new Map<string, Sample[]>();
  for (const sample of sources.flatMap((source) => source()))
    grouped.set(sample.name, [...(grouped.get(sample.name) ?? []), sample]);
  for (const [name, samples] of grouped) {
    head(name, samples[0]!.type, samples[0]!.help);
    for (const s of samples) series(name, labelKey(s.labels ?? {}), s.value);
  }
  return `${lines.join("\n")}\n`;
}
