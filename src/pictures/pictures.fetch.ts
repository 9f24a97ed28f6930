import type { Deps } from "../deps";
import { assertPublicUrl } from "../lib/ssrf";
import { MAX_PICTURE_BYTES } from "./pictures.image";

/** A server-side fetch of a picture or a page answered something other than the bytes wanted. */
export class FetchFailed extends Error {
  constructor(
    message: string,
    /** A definite "nothing there" (404/410): remembered longer than a transient failure. */
    readonly missing = false,
  ) {
    super(message);
  }
}

const MAX_REDIRECTS = 3;
const TIMEOUT_MS = 10_000;

/**
 * GET behind the SSRF guard: every address the host resolves to must be public (or allowed by
 * DESK_ALLOWED_PRIVATE_HOSTS), checked again for each redirect; ten seconds in all; the body is
 * read while it streams and refused past `maxBytes`. Cookies and credentials are never sent.
 */
export async function guardedGet(
  deps: Pick<Deps, "config">,
  raw: string,
  options: { maxBytes?: number; accept?: string } = {},
): Promise<{ url: URL; type: string; body: Uint8Array }> {
  const maxBytes = options.maxBytes ?? MAX_PICTURE_BYTES;
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  let target = raw;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const { url } = await assertPublicUrl(target, deps.config.allowedPrivateHosts).catch((error: Error) => {
      throw new FetchFailed(error.message);
    });
    const response = await fetch(url, {
      redirect: "manual",
      signal,
      headers: { accept: options.accept ?? "image/*", "user-agent": "Desk (picture lookup)" },
    }).catch((error: Error) => {
      throw new FetchFailed(`cannot fetch ${url.host}: ${error.message}`);
    });
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("location");
      await response.body?.cancel();
      if (!location) throw new FetchFailed("a redirect without a location");
      target = new URL(location, url).toString();
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new FetchFailed(
        `${url.host} answered ${response.status}`,
        response.status === 404 || response.status === 410,
      );
    }
    if (Number(response.headers.get("content-length") ?? 0) > maxBytes) {
      await response.body?.cancel();
      throw new FetchFailed("the answer is too large");
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read().catch((error: Error) => {
          throw new FetchFailed(`reading ${url.host} failed: ${error.message}`);
        });
        if (done) break;
        total += value.byteLength;
        if (total > maxBytes) {
          await reader.cancel();
          throw new FetchFailed("the answer is too large");
        }
        chunks.push(value);
      }
    }
    const body = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return { url, type: response.headers.get("content-type") ?? "", body };
  }
  throw new FetchFailed("too many redirects");
}

/** The icons a home page names, best first: apple-touch-icon, then icons by declared size (largest first). */
export function iconLinks(html: string, base: URL): string[] {
  const found: Array<{ href: string; rank: number }> = [];
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const attr = (name: string) =>
      tag
        .match(new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i"))
        ?.slice(1)
        .find(Boolean);
    const rel = (attr("rel") ?? "").toLowerCase().split(/\s+/);
    const href = attr("href");
    if (!href) continue;
    const touch = rel.includes("apple-touch-icon") || rel.includes("apple-touch-icon-precomposed");
    if (!touch && !rel.includes("icon")) continue;
    if (/\.svg(\?|$)/i.test(href) || (attr("type") ?? "").includes("svg")) continue;
    const size = Number((attr("sizes") ?? "").match(/(\d+)x\d+/i)?.[1] ?? 0);
    try {
      found.push({ href: new URL(href, base).toString(), rank: (touch ? 10_000 : 0) + size });
    } catch {
      // an unreadable href: skip it
    }
  }
  return found.sort((a, b) => b.rank - a.rank).map((f) => f.href);
}
