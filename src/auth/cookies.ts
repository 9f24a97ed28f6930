import type { Config } from "../config/config";
import { isUuid } from "../lib/ids";

/** Sessions last 30 days from their last refresh; their refresh cookie as long. */
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

/** One refresh cookie per account: `desk_rt_<user id>`. */
export const REFRESH_COOKIE_PREFIX = "desk_rt_";
/** The former single-account cookie; still read, moved to the new name on first use. */
export const LEGACY_REFRESH_COOKIE = "desk_refresh";
export const REFRESH_COOKIE_PATH = "/v1/auth";

export type PresentedCookie = {
  name: string;
  token: string /** null for the legacy cookie (its user is the session's). */;
  userId: string | null;
};

/** Where a route writes response headers: Elysia's `set`, or anything with the same shape. */
export type SessionSetter = { headers: Record<string, unknown>; status?: number | string };

export function readCookies(request: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      continue;
    }
    if (name && value) out.set(name, value);
  }
  return out;
}

/** The refresh cookies this browser sent: every `desk_rt_<uuid>` and the legacy one. */
export function presentedRefreshCookies(request: Request): PresentedCookie[] {
  const found: PresentedCookie[] = [];
  for (const [name, token] of readCookies(request)) {
    if (name === LEGACY_REFRESH_COOKIE) found.push({ name, token, userId: null });
    else if (name.startsWith(REFRESH_COOKIE_PREFIX) && isUuid(name.slice(REFRESH_COOKIE_PREFIX.length))) {
      found.push({ name, token, userId: name.slice(REFRESH_COOKIE_PREFIX.length).toLowerCase() });
    }
  }
  return found;
}

export const refreshCookieName = (userId: string) => `${REFRESH_COOKIE_PREFIX}${userId}`;

const attributes = (config: Pick<Config, "secureCookies">, maxAge: number) =>
  `Path=${REFRESH_COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${config.secureCookies ? "; Secure" : ""}`;

export const refreshCookie = (config: Pick<Config, "secureCookies">, userId: string, token: string) =>
  `${refreshCookieName(userId)}=${token}; ${attributes(config, Math.floor(SESSION_TTL_MS / 1000))}`;

export const clearedCookie = (config: Pick<Config, "secureCookies">, name: string) =>
  `${name}=; ${attributes(config, 0)}`;

/** Adds one Set-Cookie header; Elysia writes an array as one header line per cookie. */
export function addSetCookie(set: SessionSetter, cookie: string): void {
  const current = set.headers["set-cookie"];
  const list = Array.isArray(current) ? (current as string[]) : typeof current === "string" ? [current] : [];
  if (!list.includes(cookie)) list.push(cookie);
  set.headers["set-cookie"] = list;
}

/** SPEC.md "Native apps": `DESK-Client: ios/<version>` and no Origin header. */
export function isNativeRequest(request: Request): boolean {
  const client = request.headers.get("desk-client");
  return !!client && /^ios\/[0-9A-Za-z.+-]{1,40}$/.test(client.trim()) && !request.headers.has("origin");
}

/**
 * Whether a browser request comes from another site (cross-site request forgery). The refresh
 * cookie is sent with any request to /v1/auth, so routes it authenticates (and routes that set
 * it) must know the page that asked is Desk's own. Trusted: the base URL's origin, or the origin
 * the request itself was addressed to (the same Desk reached under another name, such as
 * 127.0.0.1 for localhost or a dev proxy). Without Origin, Sec-Fetch-Site and then Referer
 * decide; a request with none of them is not from a browser (curl, scripts, native apps) and
 * carries no ambient cookie a forger could borrow.
 */
export function isCrossSiteRequest(config: Pick<Config, "baseUrl">, request: Request): boolean {
  if (isNativeRequest(request)) return false;
  const origin = request.headers.get("origin");
  if (origin !== null) return !isTrustedOrigin(config, request, origin);
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site !== "same-origin" && site !== "none";
  const referer = request.headers.get("referer");
  if (!referer) return false;
  try {
    return !isTrustedOrigin(config, request, new URL(referer).origin);
  } catch {
    return true;
  }
}

function isTrustedOrigin(config: Pick<Config, "baseUrl">, request: Request, origin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, privacy redirects) and garbage
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  if (parsed.origin === new URL(config.baseUrl).origin) return true;
  // Behind a TLS-terminating proxy the request URL says http: compare the host (name and port) only.
  return parsed.host === new URL(request.url).host;
}
