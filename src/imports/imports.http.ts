import { assertPublicUrl, UnsafeUrlError } from "../lib/ssrf";
import { SourceError } from "./imports.source";

/** The longest a vendor's Retry-After is honoured in one wait; a longer one is waited in turns. */
const MAX_RETRY_AFTER_MS = 120_000;
const RATE_LIMITED_TRIES = 10;
const FAILED_TRIES = 4;
export const MAX_JSON_BYTES = 50 * 1024 * 1024;

export type SourceHttpOptions = {
  headers: Record<string, string>;
  /** Operator-allowed private hosts (DESK_ALLOWED_PRIVATE_HOSTS): every URL passes the SSRF guard. */
  allowList: readonly string[];
  /** Requests a minute the vendor documents for this kind of call, per budget name. */
  budgets: Record<string, number>;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
};

export const abortableSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });

/**
 * A vendor's HTTP API as sources call it: a per-minute budget per kind of call (a sliding window
 * of at most `budget` timestamps), 429 answers waited out for their Retry-After, 5xx and network
 * failures retried with backoff, every URL through the SSRF guard, bodies read with a cap.
 */
export class SourceHttp {
  private readonly windows = new Map<string, number[]>();
  private readonly checkedHosts = new Set<string>();
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How many 429 answers were waited out (the tests and the bench read it). */
  rateLimited = 0;

  constructor(private readonly options: SourceHttpOptions) {
    this.sleep = options.sleep ?? abortableSleep;
  }

  private async withinBudget(name: string, signal: AbortSignal): Promise<void> {
    const limit = this.options.budgets[name] ?? this.options.budgets.default ?? 60;
    const window = this.windows.get(name) ?? [];
    this.windows.set(name, window);
    for (;;) {
      const now = performance.now();
      while (window.length && now - window[0]! >= 60_000) window.shift();
      if (window.length < limit) {
        window.push(now);
        return;
      }
      await this.sleep(60_000 - (now - window[0]!) + 5, signal);
    }
  }

  private async guard(url: string): Promise<void> {
    const host = new URL(url).host;
    if (this.checkedHosts.has(host)) return;
    try {
      await assertPublicUrl(url, this.options.allowList);
    } catch (error) {
      if (error instanceof UnsafeUrlError) throw new SourceError(`${host}: ${error.message}`);
      throw new SourceError(`${host}: cannot be resolved`);
    }
    this.checkedHosts.add(host);
  }

  /** One GET; answers the response once it is neither a 429 nor a passing failure. */
  async get(url: string, signal: AbortSignal, budget = "default", hops = 0): Promise<Response> {
    await this.guard(url);
    let failures = 0;
    for (let rateLimited = 0; ; ) {
      await this.withinBudget(budget, signal);
      let response: Response;
      try {
        // The credentials go to the API root only, never to the host a redirect names.
        response = await fetch(url, { headers: hops === 0 ? this.options.headers : {}, signal, redirect: "manual" });
      } catch (error) {
        if (signal.aborted) throw error;
        if (++failures >= FAILED_TRIES) throw new SourceError(`${new URL(url).host} did not answer`);
        await this.sleep(1000 * 2 ** failures, signal);
        continue;
      }
      if (response.status === 429) {
        await response.body?.cancel();
        this.rateLimited++;
        if (++rateLimited >= RATE_LIMITED_TRIES)
          throw new SourceError("the vendor kept answering 429 Too Many Requests");
        const seconds = Number(response.headers.get("retry-after"));
        const wait = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 60_000;
        await this.sleep(Math.min(wait, MAX_RETRY_AFTER_MS), signal);
        continue;
      }
      if (response.status >= 500) {
        await response.body?.cancel();
        if (++failures >= FAILED_TRIES) throw new SourceError(`the vendor answered ${response.status}`);
        await this.sleep(1000 * 2 ** failures, signal);
        continue;
      }
      if (response.status >= 300 && response.status < 400) {
        // Attachment links redirect to the vendor's file host: follow once, through the guard again.
        const location = response.headers.get("location");
        await response.body?.cancel();
        if (!location || hops >= 3) throw new HttpStatusError(response.status, "too many redirects");
        return this.get(new URL(location, url).toString(), signal, budget, hops + 1);
      }
      return response;
    }
  }

  async json(url: string, signal: AbortSignal, budget = "default"): Promise<unknown> {
    const response = await this.get(url, signal, budget);
    if (response.status === 401 || response.status === 403)
      throw new SourceError("the vendor refused the credentials (check the email and API token)");
    if (!response.ok)
      throw new HttpStatusError(response.status, `the vendor answered ${response.status} for ${new URL(url).pathname}`);
    const text = new TextDecoder().decode(await readCapped(response, MAX_JSON_BYTES));
    try {
      return JSON.parse(text);
    } catch {
      throw new SourceError(`the vendor's answer for ${new URL(url).pathname} is not JSON`);
    }
  }

  async bytes(url: string, max: number, signal: AbortSignal): Promise<Uint8Array> {
    const response = await this.get(url, signal, "files");
    if (!response.ok) throw new HttpStatusError(response.status, `the file answered ${response.status}`);
    return readCapped(response, max);
  }
}

/** A record's own failure (a 404 for one ticket): recorded on the import, the run goes on. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel();
    throw new HttpStatusError(413, `larger than ${Math.round(max / 1024 / 1024)} MB`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (reader)
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel();
        throw new HttpStatusError(413, `larger than ${Math.round(max / 1024 / 1024)} MB`);
      }
      chunks.push(value);
    }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
