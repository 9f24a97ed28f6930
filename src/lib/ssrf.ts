import { lookup } from "node:dns/promises";

/**
 * The guard in front of every server-side request to a user-given URL or host (webhooks, picture
 * fetches, mailboxes' IMAP and SMTP servers).
 * Private, loopback, link-local and other non-public addresses are refused, in every spelling
 * (decimal, octal, hex, short IPv4, IPv6, IPv4-mapped IPv6) and after DNS resolution, unless the
 * operator lists the host or a CIDR holding it in DESK_ALLOWED_PRIVATE_HOSTS.
 */

export class UnsafeUrlError extends Error {}

type Address = { family: 4; bytes: number[] } | { family: 6; bytes: number[] };

/** inet_aton forms: `127.0.0.1`, `127.1`, `0x7f.1`, `0177.0.0.1`, `2130706433`, `0x7f000001`. */
function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length === 0 || parts.length > 4 || parts.some((p) => p === "")) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part, 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isFinite(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255)) return null;
  const lastBytes = 4 - values.length;
  if (last >= 2 ** (8 * lastBytes)) return null;
  const tail = [];
  for (let i = lastBytes - 1; i >= 0; i--) tail.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return [...values, ...tail];
}

function parseIPv6(text: string): number[] | null {
  let body = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!/^[0-9a-f:.]+$/i.test(body) || !body.includes(":")) return null;
  let tailV4: number[] = [];
  const lastColon = body.lastIndexOf(":");
  if (body.slice(lastColon + 1).includes(".")) {
    const v4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(body.slice(lastColon + 1)) ? parseIPv4(body.slice(lastColon + 1)) : null;
    if (!v4) return null;
    tailV4 = v4;
    body = `${body.slice(0, lastColon + 1)}0:0`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
  if (tailV4.length) bytes.splice(12, 4, ...tailV4);
  return bytes;
}

/** Parses an IP literal in any accepted spelling; null for a host name. */
export function parseIp(text: string): Address | null {
  const v6 = parseIPv6(text);
  if (v6) return { family: 6, bytes: v6 };
  const v4 = parseIPv4(text);
  return v4 ? { family: 4, bytes: v4 } : null;
}

const inPrefix = (bytes: number[], prefix: number[], bits: number): boolean => {
  for (let i = 0; i < bits; i++) {
    const bit = (b: number[], n: number) => ((b[n >> 3] ?? 0) >> (7 - (n & 7))) & 1;
    if (bit(bytes, i) !== bit(prefix, i)) return false;
  }
  return true;
};

const V4_BLOCKED: Array<[number[], number]> = [
  [[0, 0, 0, 0], 8], // "this network", 0.0.0.0
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10], // carrier-grade NAT
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16], // link-local, cloud metadata
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved and broadcast
];

/** True for any address a server-side request must not reach without the operator's consent. */
export function isNonPublicAddress(address: Address): boolean {
  const b = address.bytes;
  if (address.family === 4) return V4_BLOCKED.some(([prefix, bits]) => inPrefix(b, prefix, bits));
  const embedded = (from: number) => ({ family: 4 as const, bytes: b.slice(from, from + 4) });
  if (b.every((x) => x === 0)) return true; // ::
  if (inPrefix(b, [...Array(15).fill(0), 1], 128)) return true; // ::1
  if (inPrefix(b, [...Array(10).fill(0), 0xff, 0xff], 96)) return isNonPublicAddress(embedded(12)); // ::ffff:a.b.c.d
  if (inPrefix(b, Array(12).fill(0), 96)) return true; // IPv4-compatible (deprecated)
  if (inPrefix(b, [0, 0x64, 0xff, 0x9b], 96)) return isNonPublicAddress(embedded(12)); // NAT64
  if (inPrefix(b, [0x20, 0x02], 16)) return isNonPublicAddress(embedded(2)); // 6to4
  if (inPrefix(b, [0xfe, 0x80], 10)) return true; // link-local
  if (inPrefix(b, [0xfe, 0xc0], 10)) return true; // site-local (deprecated)
  if (inPrefix(b, [0xfc], 7)) return true; // unique local
  if (inPrefix(b, [0xff], 8)) return true; // multicast
  if (inPrefix(b, [0x20, 0x01, 0x0d, 0xb8], 32)) return true; // documentation
  if (inPrefix(b, [0x01, 0, 0, 0, 0, 0, 0, 0], 64)) return true; // discard-only
  return false;
}

/** Does an allow-list entry (a host name, an IP or a CIDR) cover this host or address? */
function entryCovers(entry: string, host: string, address: Address | null): boolean {
  const normalized = entry.trim().toLowerCase();
  if (!normalized) return false;
  if (normalized === host.toLowerCase().replace(/^\[|\]$/g, "")) return true;
  if (!address) return false;
  const [base, bitsText] = normalized.split("/");
  const parsed = parseIp(base ?? "");
  if (!parsed || parsed.family !== address.family) return false;
  const bits = bitsText === undefined ? parsed.bytes.length * 8 : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > parsed.bytes.length * 8) return false;
  return inPrefix(address.bytes, parsed.bytes, bits);
}

export const isAllowedPrivate = (allowList: readonly string[], host: string, address: Address | null) =>
  allowList.some((entry) => entryCovers(entry, host, address));

/** Names that always mean this machine or its local network, whatever DNS says. */
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

export type UrlCheck = { url: URL; host: string; allowedByOperator: boolean };

/**
 * Checks a URL without DNS: scheme, credentials, literal addresses and local names. Plain http
 * is accepted only for an operator-allowed host.
 */
export function checkUrlSyntax(raw: string, allowList: readonly string[]): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError("url is not a valid absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UnsafeUrlError("url must use https");
  if (url.username || url.password) throw new UnsafeUrlError("url must not carry credentials");
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (!host) throw new UnsafeUrlError("url has no host");
  const literal = parseIp(host);
  const allowedByOperator = isAllowedPrivate(allowList, host, literal);
  if (url.protocol === "http:" && !allowedByOperator) throw new UnsafeUrlError("url must use https");
  if (!allowedByOperator) {
    if (literal && isNonPublicAddress(literal))
      throw new UnsafeUrlError("url must not point at a private, loopback or link-local address");
    if (!literal && (LOCAL_NAMES.test(host) || !host.includes("."))) {
      throw new UnsafeUrlError("url must not point at a private, loopback or link-local address");
    }
  }
  return { url, host, allowedByOperator };
}

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The full check, at creation and again right before each connection: every address the name
 * resolves to must be public or operator-allowed. Returns the checked addresses.
 */
export async function assertPublicUrl(
  raw: string,
  allowList: readonly string[],
  resolve: Resolver = systemResolver,
): Promise<{ url: URL; addresses: string[] }> {
  const { url, host, allowedByOperator } = checkUrlSyntax(raw, allowList);
  return { url, addresses: await resolvedPublic(host, allowedByOperator, allowList, resolve) };
}

/**
 * The same guard for a bare host name or address (mail servers: IMAP, SMTP), at save and again
 * right before each connection. Returns the checked addresses: connecting to one of them (not the
 * name again) leaves DNS no second answer to change.
 */
export async function assertPublicHost(
  rawHost: string,
  allowList: readonly string[],
  resolve: Resolver = systemResolver,
): Promise<{ host: string; addresses: string[] }> {
  const host = rawHost
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  if (!host || /[\s/@?#]/.test(host)) throw new UnsafeUrlError("the host is not a valid host name or address");
  const literal = parseIp(host);
  const allowedByOperator = isAllowedPrivate(allowList, host, literal);
  if (!allowedByOperator) {
    if (literal && isNonPublicAddress(literal))
      throw new UnsafeUrlError("the host must not be a private, loopback or link-local address");
    if (!literal && (LOCAL_NAMES.test(host) || !host.includes(".")))
      throw new UnsafeUrlError("the host must not be a private, loopback or link-local address");
  }
  return { host, addresses: await resolvedPublic(host, allowedByOperator, allowList, resolve) };
}

async function resolvedPublic(
  host: string,
  allowedByOperator: boolean,
  allowList: readonly string[],
  resolve: Resolver,
): Promise<string[]> {
  const literal = parseIp(host);
  if (literal) return [host];
  let addresses: string[];
  try {
    addresses = await withTimeout(resolve(host), 5_000);
  } catch {
    throw new UnsafeUrlError(`the host ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new UnsafeUrlError(`the host ${host} does not resolve`);
  for (const text of addresses) {
    const address = parseIp(text);
    if (!address) throw new UnsafeUrlError(`the host ${host} resolved to an unreadable address`);
    if (isNonPublicAddress(address) && !allowedByOperator && !isAllowedPrivate(allowList, host, address)) {
      throw new UnsafeUrlError("url must not point at a private, loopback or link-local address");
    }
  }
  return addresses;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
