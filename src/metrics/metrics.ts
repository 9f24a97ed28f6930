/**
 * Process-wide Prometheus metrics: small functions any subsystem calls (the HTTP observer, webhook
 * deliveries, the SMTP receiver, the gateway), rendered as text by GET /metrics.
 */

type Labels = Record<string, string>;

const counters = new Map<string, Map<string, number>>();
const gauges = new Map<string, Map<string, number>>();
const help = new Map<string, { type: "counter" | "gauge" | "histogram"; text: string }>();

const labelKey = (labels: Labels) =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]!.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`)
    .join(",");

function describe(name: string, type: "counter" | "gauge" | "histogram", text: string): void {
  help.set(name, { type, text });
}

function addToSeries(family: Map<string, Map<string, number>>, name: string, key: string, by: number): void {
  let series = family.get(name);
  if (!series) family.set(name, (series = new Map()));
  series.set(key, (series.get(key) ?? 0) + by);
}

export function incrementCounter(name: string, labels: Labels = {}, by = 1): void {
  addToSeries(counters, name, labelKey(labels), by);
}

export function addToGauge(name: string, labels: Labels = {}, by = 1): void {
  addToSeries(gauges, name, labelKey(labels), by);
}

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
type Histogram = { counts: number[]; sum: number; count: number };
const histograms = new Map<string, Map<string, Histogram>>();

export function observeHistogram(name: string, labels: Labels, seconds: number): void {
  observeByKey(name, labelKey(labels), seconds);
}

function observeByKey(name: string, key: string, seconds: number): void {
  let series = histograms.get(name);
  if (!series) histograms.set(name, (series = new Map()));
  let h = series.get(key);
  if (!h) series.set(key, (h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }));
  for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) h.counts[i]!++;
  h.sum += seconds;
  h.count++;
}

describe("desk_http_requests_total", "counter", "HTTP requests by method, route and status");
describe("desk_http_request_duration_seconds", "histogram", "HTTP request latency by method and route");
describe("desk_webhook_deliveries_total", "counter", "Webhook delivery attempts by outcome (succeeded, retried, failed)");
describe("desk_smtp_sessions_total", "counter", "SMTP sessions accepted by the embedded receiver");
describe("desk_realtime_sockets", "gauge", "WebSocket connections open on the gateway, by kind");

/** Ids and numbers in paths become `:id`, so routes stay a small label set. */
export function routeLabel(path: string): string {
  if (!path.startsWith("/v1")) return path === "/healthz" || path === "/metrics" || path.startsWith("/docs") ? path : "(web)";
  return path
    .split("/")
    .map((s) => (/^[0-9a-f-]{16,}$/i.test(s) || /^\d+$/.test(s) || s.length > 40 ? ":id" : s))
    .join("/")
    .slice(0, 120);
}

/**
 * The label keys of one (method, path, status), computed once: building and escaping labels on
 * every request cost more than the counting. Bounded, since paths carry ids: when full it starts over.
 */
type HttpSeriesKeys = { counter: string; histogram: string };
const httpSeriesKeys = new Map<string, HttpSeriesKeys>();
const HTTP_SERIES_KEYS_MAX = 5000;

function httpSeriesKeysOf(method: string, path: string, status: number): HttpSeriesKeys {
  const cacheKey = `${method} ${status} ${path}`;
  let keys = httpSeriesKeys.get(cacheKey);
  if (!keys) {
    const route = routeLabel(path);
    keys = { counter: labelKey({ method, route, status: String(status) }), histogram: labelKey({ method, route }) };
    if (httpSeriesKeys.size >= HTTP_SERIES_KEYS_MAX) httpSeriesKeys.clear();
    httpSeriesKeys.set(cacheKey, keys);
  }
  return keys;
}

export function recordHttpRequest(info: { method: string; route: string; status: number; ms: number }): void {
  const keys = httpSeriesKeysOf(info.method, info.route, info.status);
  addToSeries(counters, "desk_http_requests_total", keys.counter, 1);
  observeByKey("desk_http_request_duration_seconds", keys.histogram, info.ms / 1000);
}

export const recordWebhookDelivery = (outcome: "succeeded" | "retried" | "failed") => incrementCounter("desk_webhook_deliveries_total", { outcome });

/** The mail receiver calls this once per accepted SMTP connection. */
export const countSmtpSession = () => incrementCounter("desk_smtp_sessions_total");

export const socketOpened = (kind: "agent" | "widget") => addToGauge("desk_realtime_sockets", { kind }, 1);
export const socketClosed = (kind: "agent" | "widget") => addToGauge("desk_realtime_sockets", { kind }, -1);

/** Reads a counter's current value (tests and benchmarks). */
export const counterValue = (name: string, labels: Labels = {}) => counters.get(name)?.get(labelKey(labels)) ?? 0;

/** A source of series computed at scrape time (job counts, seq lag). */
export type Sample = { name: string; type: "counter" | "gauge"; help: string; labels?: Labels; value: number };
export type MetricSource = () => Sample[];

export function renderMetrics(sources: MetricSource[] = []): string {
  const lines: string[] = [];
  const head = (name: string, type: string, text: string) => lines.push(`# HELP ${name} ${text}`, `# TYPE ${name} ${type}`);
  const series = (name: string, key: string, value: number) => lines.push(`${name}${key ? `{${key}}` : ""} ${value}`);
  for (const [name, values] of [...counters, ...gauges]) {
    const meta = help.get(name);
    head(name, meta?.type ?? "counter", meta?.text ?? name);
    for (const [key, value] of values) series(name, key, value);
  }
  for (const [name, values] of histograms) {
    head(name, "histogram", help.get(name)?.text ?? name);
    for (const [key, h] of values) {
      const prefix = key ? `${key},` : "";
      BUCKETS.forEach((b, i) => lines.push(`${name}_bucket{${prefix}le="${b}"} ${h.counts[i]}`));
      lines.push(`${name}_bucket{${prefix}le="+Inf"} ${h.count}`);
      series(`${name}_sum`, key, Number(h.sum.toFixed(6)));
      series(`${name}_count`, key, h.count);
    }
  }
  const grouped = new Map<string, Sample[]>();
  for (const sample of sources.flatMap((source) => source())) grouped.set(sample.name, [...(grouped.get(sample.name) ?? []), sample]);
  for (const [name, samples] of grouped) {
    head(name, samples[0]!.type, samples[0]!.help);
    for (const s of samples) series(name, labelKey(s.labels ?? {}), s.value);
  }
  return lines.join("\n") + "\n";
}
