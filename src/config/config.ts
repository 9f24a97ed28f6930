import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { z } from "zod";
import { isPostgresUrl } from "./engine";

const boolFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** Parses a duration such as `7d`, `12h`, `30m`, `45s` into milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`invalid duration: ${text}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? "s"] ?? 1000;
  return Number(match[1]) * unit;
}

/** A duration variable ("90s", "5m"; a bare number is seconds), parsed to milliseconds. */
const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine(
      (text) => /^\d+\s*(ms|s|m|h|d)?$/.test(text.trim()) && parseDuration(text) > 0,
      "a positive duration like 90s, 5m or 1h",
    )
    .transform(parseDuration);

/** DESK_OAUTH_PROVIDER_<A|B>_*: endpoints and client of an OAuth-connected mail provider (all optional). */
function oauthProviderEnv<L extends "A" | "B">(letter: L) {
  const p = `DESK_OAUTH_PROVIDER_${letter}` as const;
  return {
    [`${p}_AUTH_URL`]: z.string().url().optional().describe(`provider_${letter.toLowerCase()} authorization endpoint`),
    [`${p}_TOKEN_URL`]: z.string().url().optional().describe(`provider_${letter.toLowerCase()} token endpoint`),
    [`${p}_CLIENT_ID`]: z.string().optional(),
    [`${p}_CLIENT_SECRET`]: z.string().optional(),
    [`${p}_IMAP_HOST`]: z.string().optional().describe("host[:port] of the provider's IMAP (TLS)"),
    [`${p}_SMTP_HOST`]: z
      .string()
      .optional()
      .describe("host[:port] of the provider's SMTP (STARTTLS on 587 unless 465)"),
    [`${p}_SCOPE`]: z.string().optional(),
  } as Record<
    `${typeof p}_${"AUTH_URL" | "TOKEN_URL" | "CLIENT_ID" | "CLIENT_SECRET" | "IMAP_HOST" | "SMTP_HOST" | "SCOPE"}`,
    z.ZodOptional<z.ZodString>
  >;
}

export type OAuthProviderConfig = {
  authUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  imapHost: string;
  smtpHost: string;
  scope: string;
};

function oauthProviderConfig(env: Record<string, string | undefined>, letter: "A" | "B"): OAuthProviderConfig | null {
  const get = (name: string) => env[`DESK_OAUTH_PROVIDER_${letter}_${name}`];
  const authUrl = get("AUTH_URL");
  const tokenUrl = get("TOKEN_URL");
  const clientId = get("CLIENT_ID");
  if (!authUrl || !tokenUrl || !clientId) return null;
  return {
    authUrl,
    tokenUrl,
    clientId,
    clientSecret: get("CLIENT_SECRET") ?? "",
    imapHost: get("IMAP_HOST") ?? "",
    smtpHost: get("SMTP_HOST") ?? "",
    scope: get("SCOPE") ?? "mail offline_access",
  };
}

/** One OpenID Connect provider people may sign in with (DESK_SSO_<ID>_*). */
export type SsoProviderConfig = {
  /** Lower-case id from DESK_SSO_PROVIDERS: the URL segment of its start and callback routes. */
  id: string;
  /** The button label ("Sign in with <name>"). */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
};

/**
 * DESK_SSO_PROVIDERS=keycloak,google names the providers; each reads DESK_SSO_<ID>_ISSUER,
 * _CLIENT_ID, _CLIENT_SECRET and optionally _NAME and _SCOPES (ID upper-cased, `-` as `_`).
 * A provider missing its issuer or client id stops Desk at start rather than showing a dead button.
 */
export function ssoProvidersFromEnv(env: Record<string, string | undefined>): SsoProviderConfig[] {
  const ids = (env.DESK_SSO_PROVIDERS ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return ids.map((id) => {
    if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(id))
      throw new Error(`invalid configuration:\nDESK_SSO_PROVIDERS: bad id "${id}"`);
    const prefix = `DESK_SSO_${id.toUpperCase().replace(/-/g, "_")}_`;
    const get = (name: string) => env[`${prefix}${name}`]?.trim() || undefined;
    const issuer = get("ISSUER");
    const clientId = get("CLIENT_ID");
    if (!issuer || !clientId)
      throw new Error(
        `invalid configuration:\n${prefix}ISSUER and ${prefix}CLIENT_ID are required for provider "${id}"`,
      );
    return {
      id,
      name: get("NAME") ?? id.charAt(0).toUpperCase() + id.slice(1),
      issuer: issuer.replace(/\/$/, ""),
      clientId,
      clientSecret: get("CLIENT_SECRET") ?? "",
      scopes: get("SCOPES") ?? "openid email profile",
    };
  });
}

/**
 * The URL of the HTTP listener itself, the default public URL. A loopback or wildcard address is
 * reached as `localhost` (0.0.0.0 cannot be opened in a browser); any other host as it is.
 */
export function listenerBaseUrl(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, "");
  const local =
    bare === "" || bare === "0.0.0.0" || bare === "::" || bare === "::1" || bare === "localhost" || /^127\./.test(bare);
  const name = local ? "localhost" : bare.includes(":") ? `[${bare}]` : bare;
  return `http://${name}:${port}`;
}

/** Every DESK_* variable, with its default; DECISIONS.md pins the names and defaults. */
export const envSchema = z.object({
  DESK_HOST: z.string().default("127.0.0.1").describe("HTTP listener address"),
  DESK_PORT: z.coerce.number().int().min(0).max(65535).default(8080).describe("HTTP listener port"),
  DESK_DATA_DIR: z.string().default("./data").describe("SQLite file, attachments, pictures, generated secrets"),
  DESK_DATABASE_URL: z
    .string()
    .refine(isPostgresUrl, "a postgres:// URL")
    .optional()
    .describe(
      "postgres://user:pass@host:port/db runs Desk on PostgreSQL 15+ (default: the SQLite file in DESK_DATA_DIR)",
    ),
  DESK_FILES_URL: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^?#]*)?$/, "an s3://bucket/prefix URL")
    .optional()
    .describe(
      "s3://bucket/prefix keeps attachments, pictures, raw mail and the outbox in S3-compatible storage (default: the data dir)",
    ),
  DESK_S3_ENDPOINT: z
    .string()
    .url()
    .optional()
    .describe("URL of the S3-compatible service of DESK_FILES_URL (default: AWS S3 in DESK_S3_REGION)"),
  DESK_S3_REGION: z.string().optional().describe("region of DESK_FILES_URL's bucket (default: us-east-1)"),
  AWS_ACCESS_KEY_ID: z.string().optional().describe("access key of DESK_FILES_URL's bucket"),
  AWS_SECRET_ACCESS_KEY: z.string().optional().describe("secret key of DESK_FILES_URL's bucket"),
  DESK_BASE_URL: z
    .string()
    .url()
    .optional()
    .describe("public URL used in links, emails, gateway_url (default: the HTTP listener's address)"),
  DESK_SMTP_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(2525)
    .describe("embedded SMTP receiver port (0 = off)"),
  DESK_SMTP_HOST: z
    .string()
    .optional()
    .describe("embedded SMTP receiver address (default: DESK_HOST); 0.0.0.0 to take mail from other hosts"),
  DESK_SMTP_TLS_CERT: z.string().optional().describe("PEM certificate file enabling STARTTLS on the receiver"),
  DESK_SMTP_TLS_KEY: z.string().optional().describe("PEM key file for the receiver certificate"),
  DESK_SMTP_MAX_CONNECTIONS: z.coerce
    .number()
    .int()
    .min(1)
    .default(100)
    .describe("SMTP receiver: open connections at most"),
  DESK_SMTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe("SMTP receiver: open connections per client address at most"),
  DESK_SMTP_IDLE_TIMEOUT: duration("1m").describe("SMTP receiver: silence allowed before the connection is closed"),
  DESK_SMTP_COMMAND_TIMEOUT: duration("5m").describe(
    "SMTP receiver: time for the commands from greeting (or the last message) to DATA",
  ),
  DESK_SMTP_DATA_TIMEOUT: duration("10m").describe(
    "SMTP receiver: time for one message's data, however fast bytes trickle in",
  ),
  DESK_CSAT_DELAY: duration("10m").describe(
    "CSAT: the rating request is mailed this long after the solve (a reopen in between cancels it)",
  ),
  DESK_CHAT_MAIL_DELAY: duration("2m").describe(
    "chat widget: an agent's reply the visitor has not seen this long after it was sent is mailed to their email",
  ),
  DESK_INBOUND_DOMAIN: z
    .string()
    .optional()
    .describe("domain of generated forwarding addresses (default: the base URL host)"),
  DESK_SECRET: z.string().min(16).optional().describe("signs tokens; derives the key that encrypts stored secrets"),
  DESK_INBOUND_SECRET: z.string().min(8).optional().describe("DESK-Inbound-Secret of POST /v1/inbound/email"),
  DESK_OPEN_SIGNUP: boolFlag.describe("true: anyone may register"),
  DESK_SMTP_URL: z.string().optional().describe("relay for system mail (smtp://user:pass@host:port)"),
  DESK_MAIL_FROM: z
    .string()
    .trim()
    .max(254)
    .regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/, "an email address")
    .optional()
    .describe("sender address of system mail (default no-reply@<base URL host>)"),
  DESK_METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe(
      "GET /metrics needs `Authorization: Bearer <token>` (default: open on a loopback listener, else a token generated into the data dir)",
    ),
  DESK_REALTIME_MAX_SOCKETS: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe("gateway: open WebSockets at most (default and ceiling: the open-file limit minus the reserve)"),
  DESK_REALTIME_FD_RESERVE: z.coerce
    .number()
    .int()
    .min(0)
    .default(512)
    .describe("gateway: file descriptors kept free of WebSockets for HTTP, SMTP and the database"),
  DESK_REALTIME_SOCKETS_PER_SESSION: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .describe("gateway: agent sockets per sign-in session or API key"),
  DESK_WIDGET_SOCKETS_PER_TOKEN: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe("gateway: widget sockets per gateway token"),
  DESK_WIDGET_SOCKETS_PER_VISITOR: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe("gateway: widget sockets per visitor (contact)"),
  DESK_WIDGET_SOCKETS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .describe("gateway: widget sockets per client address"),
  DESK_AI_BASE_URL: z.string().optional().describe("OpenAI-compatible provider URL (unset = AI off)"),
  DESK_AI_API_KEY: z.string().optional().describe("the provider's API key"),
  DESK_AI_MODEL: z.string().optional().describe("default model (drafts, answers, triage)"),
  DESK_AI_FAST_MODEL: z
    .string()
    .optional()
    .describe("fast model (rewrite, translate, summaries; default: DESK_AI_MODEL)"),
  DESK_AI_WIDGET_MODEL: z.string().optional().describe("model of the chat widget's answers (default: the fast model)"),
  DESK_AI_EMBEDDING_MODEL: z.string().optional().describe("embedding model (unset: no semantic search)"),
  DESK_AI_TIMEOUT: duration("60s").describe("time a provider call may take before it fails"),
  DESK_AI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2).describe("retries on 429, 5xx and timeouts"),
  DESK_ALLOWED_PRIVATE_HOSTS: z
    .string()
    .default("")
    .describe("hosts or CIDRs webhooks and mailboxes' IMAP/SMTP servers may reach although private"),
  DESK_TRUSTED_AUTH_SERVERS: z.string().default("").describe("authserv-ids whose Authentication-Results are trusted"),
  DESK_MAIL_CA_FILE: z
    .string()
    .optional()
    .describe("PEM file of extra CAs trusted for mailbox IMAP/SMTP servers (internal CAs)"),
  ...oauthProviderEnv("A"),
  ...oauthProviderEnv("B"),
  DESK_SSO_PROVIDERS: z
    .string()
    .optional()
    .describe("comma-separated ids of OpenID Connect sign-in providers, each configured by DESK_SSO_<ID>_*"),
  DESK_GRAVATAR_URL: z
    .string()
    .url()
    .default("https://gravatar.com/avatar")
    .describe(
      "where contact pictures are looked up when the workspace's gravatar setting is on (<url>/<sha256 of email>)",
    ),
  DESK_DOMAIN_ICONS_URL: z
    .string()
    .default("https://{domain}")
    .describe("where a company's icons are looked for ({domain} is replaced); tests point it at a local server"),
  APP_ATTEST_APP_IDS: z
    .string()
    .default("")
    .describe(
      "comma-separated App Attest app ids (<team id>.<bundle id>) whose attested keys may stand in for the sign-in challenge",
    ),
  DESK_APP_SCHEME: z
    .string()
    .regex(/^[a-z][a-z0-9+.-]*$/)
    .default("desk")
    .describe("URL scheme of the native app: OAuth sign-in returns to <scheme>://auth/callback"),
  EVENT_RETENTION: z.string().default("7d").describe("event log retention"),
  DESK_BACKUP_INTERVAL: z
    .string()
    .default("1d")
    .refine(
      (text) =>
        text.trim() === "off" || (/^\d+\s*(ms|s|m|h|d)?$/.test(text.trim()) && parseDuration(text) >= 3_600_000),
      "off, or a duration of at least 1h like 12h or 1d",
    )
    .describe("scheduled backups: how often (off: never)"),
  DESK_BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7).describe("scheduled backups kept"),
  DESK_BACKUP_DIR: z.string().optional().describe("where scheduled backups are written (default <data dir>/backups)"),
  DESK_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DESK_JOBS: z.enum(["on", "off"]).default("on").describe("run the in-process job scheduler"),
  DESK_NODE_NAME: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe("this process's name in job leases (default: the hostname); unique among processes sharing a database"),
  DESK_READ_WORKERS: z.coerce
    .number()
    .int()
    .min(0)
    .max(16)
    .default(2)
    .describe(
      "worker threads for slow reads (search, reports, audit log, lists with q, CSV exports); 0 runs them on the main thread",
    ),
  DESK_READ_TIMEOUT: z
    .string()
    .default("10s")
    .refine(
      (text) => /^\d+\s*(ms|s|m)?$/.test(text.trim()) && parseDuration(text) >= 50,
      "a duration like 500ms or 10s",
    )
    .describe("how long one slow read may run before it answers 503 query_timeout"),
  DESK_RESPONSE_CHECKS: z
    .enum(["on", "off"])
    .optional()
    .describe(
      "check every JSON answer against its route's response schema (default: on under NODE_ENV test or development)",
    ),
});

export type Env = z.infer<typeof envSchema>;

export type Config = {
  host: string;
  port: number;
  dataDir: string;
  databasePath: string;
  /** DESK_DATABASE_URL: the PostgreSQL database this desk runs on; null: the SQLite file at `databasePath`. */
  databaseUrl: string | null;
  /** DESK_FILES_URL and its S3 settings: where the desk's files live; null: the data dir (src/lib/blob-store.ts). */
  files: {
    url: string;
    endpoint: string | null;
    region: string | null;
    accessKeyId: string | null;
    secretAccessKey: string | null;
  } | null;
  baseUrl: string;
  /** No DESK_BASE_URL: `baseUrl` is the listener's address, completed with the bound port at start (DESK_PORT may be 0). */
  baseUrlFromListener: boolean;
  secureCookies: boolean;
  smtpPort: number;
  /** The SMTP receiver's listener address (DESK_SMTP_HOST, else DESK_HOST). */
  smtpHost: string;
  smtpTls: { cert: string; key: string } | null;
  /** The SMTP receiver's connection caps and phase time limits (milliseconds). */
  smtpLimits: {
    maxConnections: number;
    maxConnectionsPerAddress: number;
    idleMs: number;
    commandPhaseMs: number;
    dataPhaseMs: number;
  };
  inboundDomain: string;
  /** DESK_CHAT_MAIL_DELAY: how long an agent's chat reply may stay unseen before it is mailed. */
  chatMailDelayMs: number;
  /** DESK_CSAT_DELAY: how long after a solve the rating request is mailed. */
  csatDelayMs: number;
  secret: string;
  inboundSecret: string;
  openSignup: boolean;
  smtpRelayUrl: string | null;
  /** DESK_MAIL_FROM: the address system mail comes from; null: `no-reply@<base URL host>`. */
  mailFrom: string | null;
  ai: {
    baseUrl: string;
    apiKey: string;
    model: string;
    fastModel: string;
    widgetModel: string;
    embeddingModel: string | null;
    timeoutMs: number;
    maxRetries: number;
  } | null;
  allowedPrivateHosts: string[];
  trustedAuthServers: string[];
  /** OAuth-connected mail providers; null when not configured. */
  /** Extra CAs trusted for mailbox IMAP/SMTP connections (PEM), or null for the system store only. */
  mailCa: string[] | null;
  oauthProviders: { provider_a: OAuthProviderConfig | null; provider_b: OAuthProviderConfig | null };
  /** OpenID Connect sign-in providers (DESK_SSO_*); empty: no single sign-on. */
  ssoProviders: SsoProviderConfig[];
  /** Automatic picture sources: Gravatar's base URL and the site of a company domain (`{domain}` replaced). */
  pictureSources: { gravatar: string; domainIcons: string };
  /** App ids (team id + "." + bundle id) accepted by App Attest; empty: app attestation off. */
  appAttestAppIds: string[];
  /** PEM roots App Attest chains must reach; null: Apple's App Attestation Root CA (tests set their own). */
  appAttestRoots: string[] | null;
  /** The native app's URL scheme: OAuth sign-in returns to `<scheme>://auth/callback` (DESK_APP_SCHEME). */
  appScheme: string;
  eventRetentionMs: number;
  /** Scheduled backups: every `intervalMs` (null: off), the newest `keep` archives kept in `dir`. */
  backup: { intervalMs: number | null; keep: number; dir: string };
  logLevel: Env["DESK_LOG_LEVEL"];
  jobsEnabled: boolean;
  /** This process's name in job leases (src/jobs/runner.leases.ts): DESK_NODE_NAME, else the hostname. */
  nodeName: string;
  /** The read pool (src/db/read-pool.ts): worker threads and one read's time budget. */
  reads: {
    workers: number;
    budgetMs: number /** Extra modules of named reads the workers load (tests only). */;
    modules?: string[];
  };
  /** Check answers against their response schemas: contract drift fails tests and development, production pays nothing. */
  responseChecks: boolean;
  /** Bearer token GET /metrics asks for; null: it answers whoever reaches the listener. */
  metricsToken: string | null;
  /** The WebSocket gateway's caps (src/realtime/socket-limits.ts); over one, an upgrade answers 429. */
  realtimeLimits: {
    /** DESK_REALTIME_MAX_SOCKETS, or null: the open-file limit minus `fdReserve`. */
    maxSockets: number | null;
    fdReserve: number;
    perSession: number;
    widgetPerToken: number;
    widgetPerVisitor: number;
    widgetPerAddress: number;
  };
};

/** A listener only this machine reaches (127.0.0.0/8, ::1, localhost); a wildcard address is not one. */
export function loopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  return bare === "::1" || bare === "localhost" || /^127\./.test(bare);
}

/**
 * The data dir holds mail, attachments and secrets: only Desk's own user may enter it. One made
 * 0755 by an earlier version is tightened, which closes everything inside it to other users. (The
 * files themselves are 0600 through the process umask `main.ts` sets.)
 */
export function preparePrivateDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dataDir, 0o700);
  } catch {
    // Not ours to change (a mounted volume owned by another user): its owner decides who reads it.
  }
}

/** Reads a generated secret from the data dir, creating it (mode 0600) on first start. */
function keptSecret(dataDir: string, name: string): string {
  const path = join(dataDir, name);
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  const value = randomBytes(32).toString("base64url");
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return value;
}

/**
 * PostgreSQL serves several nodes, which must sign and encrypt alike: the secrets come from the
 * environment, never from a file one node generated.
 */
function checkPostgresSecrets(e: Env): void {
  if (!e.DESK_DATABASE_URL) return;
  const missing = (["DESK_SECRET", "DESK_INBOUND_SECRET"] as const).filter((name) => !e[name]);
  if (missing.length > 0)
    throw new Error(
      `invalid configuration:\n${missing.join(", ")}: required with DESK_DATABASE_URL (the same value on every node)`,
    );
}

/** An OpenAI-compatible provider when DESK_AI_BASE_URL and DESK_AI_MODEL are set; null: AI off. */
const aiConfigOf = (e: Env): Config["ai"] =>
  e.DESK_AI_BASE_URL && e.DESK_AI_MODEL
    ? {
        baseUrl: e.DESK_AI_BASE_URL,
        apiKey: e.DESK_AI_API_KEY ?? "none",
        model: e.DESK_AI_MODEL,
        fastModel: e.DESK_AI_FAST_MODEL ?? e.DESK_AI_MODEL,
        widgetModel: e.DESK_AI_WIDGET_MODEL ?? e.DESK_AI_FAST_MODEL ?? e.DESK_AI_MODEL,
        embeddingModel: e.DESK_AI_EMBEDDING_MODEL ?? null,
        timeoutMs: e.DESK_AI_TIMEOUT,
        maxRetries: e.DESK_AI_MAX_RETRIES,
      }
    : null;

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  checkPostgresSecrets(e);
  const dataDir = resolve(overrides.dataDir ?? e.DESK_DATA_DIR);
  preparePrivateDataDir(dataDir);
  const explicitBaseUrl = overrides.baseUrl ?? e.DESK_BASE_URL;
  const baseUrl = (explicitBaseUrl ?? listenerBaseUrl(e.DESK_HOST, e.DESK_PORT)).replace(/\/$/, "");
  return {
    host: e.DESK_HOST,
    port: e.DESK_PORT,
    dataDir,
    databasePath: join(dataDir, "desk.db"),
    databaseUrl: e.DESK_DATABASE_URL ?? null,
    files: e.DESK_FILES_URL
      ? {
          url: e.DESK_FILES_URL,
          endpoint: e.DESK_S3_ENDPOINT ?? null,
          region: e.DESK_S3_REGION ?? null,
          accessKeyId: e.AWS_ACCESS_KEY_ID ?? null,
          secretAccessKey: e.AWS_SECRET_ACCESS_KEY ?? null,
        }
      : null,
    baseUrl,
    baseUrlFromListener: explicitBaseUrl === undefined,
    secureCookies: baseUrl.startsWith("https://"),
    smtpPort: e.DESK_SMTP_PORT,
    smtpHost: e.DESK_SMTP_HOST ?? e.DESK_HOST,
    smtpTls:
      e.DESK_SMTP_TLS_CERT && e.DESK_SMTP_TLS_KEY
        ? { cert: readFileSync(e.DESK_SMTP_TLS_CERT, "utf8"), key: readFileSync(e.DESK_SMTP_TLS_KEY, "utf8") }
        : null,
    smtpLimits: {
      maxConnections: e.DESK_SMTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: e.DESK_SMTP_MAX_CONNECTIONS_PER_ADDRESS,
      idleMs: e.DESK_SMTP_IDLE_TIMEOUT,
      commandPhaseMs: e.DESK_SMTP_COMMAND_TIMEOUT,
      dataPhaseMs: e.DESK_SMTP_DATA_TIMEOUT,
    },
    inboundDomain: e.DESK_INBOUND_DOMAIN ?? new URL(baseUrl).hostname,
    chatMailDelayMs: e.DESK_CHAT_MAIL_DELAY,
    csatDelayMs: e.DESK_CSAT_DELAY,
    secret: e.DESK_SECRET ?? keptSecret(dataDir, "secret.key"),
    inboundSecret: e.DESK_INBOUND_SECRET ?? keptSecret(dataDir, "inbound-secret.key"),
    openSignup: e.DESK_OPEN_SIGNUP,
    smtpRelayUrl: e.DESK_SMTP_URL ?? null,
    mailFrom: e.DESK_MAIL_FROM ?? null,
    ai: aiConfigOf(e),
    allowedPrivateHosts: e.DESK_ALLOWED_PRIVATE_HOSTS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    trustedAuthServers: e.DESK_TRUSTED_AUTH_SERVERS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    mailCa: e.DESK_MAIL_CA_FILE ? [readFileSync(e.DESK_MAIL_CA_FILE, "utf8")] : null,
    oauthProviders: { provider_a: oauthProviderConfig(env, "A"), provider_b: oauthProviderConfig(env, "B") },
    ssoProviders: ssoProvidersFromEnv(env),
    appScheme: e.DESK_APP_SCHEME,
    appAttestAppIds: e.APP_ATTEST_APP_IDS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    appAttestRoots: null,
    pictureSources: { gravatar: e.DESK_GRAVATAR_URL.replace(/\/$/, ""), domainIcons: e.DESK_DOMAIN_ICONS_URL },
    eventRetentionMs: parseDuration(e.EVENT_RETENTION),
    backup: {
      intervalMs: e.DESK_BACKUP_INTERVAL.trim() === "off" ? null : parseDuration(e.DESK_BACKUP_INTERVAL),
      keep: e.DESK_BACKUP_KEEP,
      dir: resolve(e.DESK_BACKUP_DIR ?? join(dataDir, "backups")),
    },
    logLevel: e.DESK_LOG_LEVEL,
    jobsEnabled: e.DESK_JOBS === "on",
    nodeName: e.DESK_NODE_NAME ?? hostname(),
    reads: { workers: e.DESK_READ_WORKERS, budgetMs: parseDuration(e.DESK_READ_TIMEOUT) },
    responseChecks: e.DESK_RESPONSE_CHECKS
      ? e.DESK_RESPONSE_CHECKS === "on"
      : env.NODE_ENV === "test" || env.NODE_ENV === "development",
    // Request counts by route and the job queue are no business of whoever can reach a public listener.
    metricsToken:
      e.DESK_METRICS_TOKEN ??
      (loopbackHost(overrides.host ?? e.DESK_HOST) ? null : keptSecret(dataDir, "metrics-token.key")),
    realtimeLimits: {
      maxSockets: e.DESK_REALTIME_MAX_SOCKETS ?? null,
      fdReserve: e.DESK_REALTIME_FD_RESERVE,
      perSession: e.DESK_REALTIME_SOCKETS_PER_SESSION,
      widgetPerToken: e.DESK_WIDGET_SOCKETS_PER_TOKEN,
      widgetPerVisitor: e.DESK_WIDGET_SOCKETS_PER_VISITOR,
      widgetPerAddress: e.DESK_WIDGET_SOCKETS_PER_ADDRESS,
    },
    ...overrides,
  };
}
