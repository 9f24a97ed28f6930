/**
 * Process-wide Prometheus metrics: small functions any subsystem calls (the HTTP observer, webhook
 * deliveries, the SMTP receiver, the gateway), rendered as text by GET /metrics.
 */

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

/**
 * Series one metric may hold. Labels come from fixed sets (routes, outcomes, kinds), so a metric that
 * reaches this is fed text it should not be; past it new label sets are dropped (and counted), so no
 * caller can grow the scrape page or the process without bound.
 */
export const MAX_SERIES_PER_METRIC = 2000;
const DROPPED = "desk_metrics_series_dropped_total";
/** Where a dropped series counts: nowhere rendered. */
const detached = (): Cell => ({ value: 0 });

function cellOf(family: Map<string, Map<string, Cell>>, name: string, key: string): Cell {
  let series = family.get(name);
  if (!series) {
    series = new Map();
    family.set(name, series);
  }
  let cell = series.get(key);
  if (!cell) {
    if (series.size >= MAX_SERIES_PER_METRIC && name !== DROPPED) {
      cellOf(counters, DROPPED, "").value++;
      return detached();
    }
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
    if (series.size >= MAX_SERIES_PER_METRIC) {
      cellOf(counters, DROPPED, "").value++;
      return h;
    }
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
describe("desk_realtime_refused_total", "counter", "WebSocket upgrades refused, by reason (token, cap)");
describe("desk_smtp_messages_total", "counter", "Messages offered to the SMTP receiver, by outcome");
describe("desk_imap_syncs_total", "counter", "IMAP mailbox syncs, by outcome");
describe("desk_db_checkpoint_seconds", "histogram", "WAL checkpoints that copied pages, by duration");
describe("desk_ai_calls_total", "counter", "Calls to the AI provider, by feature and outcome");
describe(DROPPED, "counter", "Label sets refused because their metric already held its maximum of series");

/** The route label of requests counted past HTTP_SERIES_MAX. */
const OVERFLOW_ROUTE = "(overflow)";

/**
 * The series one (method, status, route) counts into, resolved once: building label keys, or even
 * one lookup string, on every request cost more than the counting (measured under load). Looked up
 * by nested maps so a request allocates nothing here. Routes are templates (`/v1/tickets/:id`), never
 * paths, so the set is small; it is bounded anyway: past HTTP_SERIES_MAX label sets, new ones count
 * into one overflow series per method and status class.
 */
type HttpSeries = { requests: Cell; duration: Histogram };
const httpSeries = new Map<string, Map<number, Map<string, HttpSeries>>>();
let httpSeriesCount = 0;
export const HTTP_SERIES_MAX = 1500;

function httpSeriesOf(method: string, status: number, route: string): HttpSeries {
  const known = httpSeries.get(method)?.get(status)?.get(route);
  if (known) return known;
  const methodLabel = KNOWN_METHODS.has(method) ? method : "OTHER";
  if (httpSeriesCount >= HTTP_SERIES_MAX) {
    // Not remembered: the lookup maps stay as bounded as the series.
    const statusClass = `${Math.min(9, Math.max(0, Math.floor(status / 100)))}xx`;
    return {
      requests: cellOf(
        counters,
        "desk_http_requests_total",
        labelKey({ method: methodLabel, route: OVERFLOW_ROUTE, status: statusClass }),
      ),
      duration: histogramOf(
        "desk_http_request_duration_seconds",
        labelKey({ method: methodLabel, route: OVERFLOW_ROUTE }),
      ),
    };
  }
  let byStatus = httpSeries.get(method);
  if (!byStatus) {
    byStatus = new Map();
    httpSeries.set(method, byStatus);
  }
  let byRoute = byStatus.get(status);
  if (!byRoute) {
    byRoute = new Map();
    byStatus.set(status, byRoute);
  }
  // A route declared as "/" under a prefix is its prefix (`/v1/webhooks/` is `/v1/webhooks`).
  const label = route.length > 1 && route.endsWith("/") ? route.slice(0, -1) : route;
  const series: HttpSeries = {
    requests: cellOf(
      counters,
      "desk_http_requests_total",
      labelKey({ method: methodLabel, route: label, status: String(status) }),
    ),
    duration: histogramOf("desk_http_request_duration_seconds", labelKey({ method: methodLabel, route: label })),
  };
  byRoute.set(route, series);
  httpSeriesCount++;
  return series;
}

/** `route` is the template that served the request (src/http/server.ts), never the requested path. */
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
export type MetricSource = () => Sample[] | Promise<Sample[]>;

export async function renderMetrics(sources: MetricSource[] = []): Promise<string> {
  // The sources first, in order, one after another (each may read the store); the rest renders in one go.
  const sampled: Sample[] = [];
  for (const source of sources) sampled.push(...(await source()));
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
  for (const sample of sampled) grouped.set(sample.name, [...(grouped.get(sample.name) ?? []), sample]);
  for (const [name, samples] of grouped) {
    head(name, samples[0]!.type, samples[0]!.help);
    for (const s of samples) series(name, labelKey(s.labels ?? {}), s.value);
  }
  return `${lines.join("\n")}\n`;
}
