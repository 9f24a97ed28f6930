import type Nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { BlobStore } from "../lib/blob-store";
import { sha256Hex } from "../lib/crypto";

/** nodemailer is loaded on first send: an idle instance never holds it in memory. */
const loadNodemailer = async (): Promise<typeof Nodemailer> => (await import("nodemailer")).default;

/** `opportunistic` upgrades with STARTTLS when offered (relay URLs); the others are strict. */
export type TlsMode = "tls" | "starttls" | "none" | "opportunistic";

export type SmtpSettings = {
  host: string;
  port: number;
  tls: TlsMode;
  auth: { user: string; pass: string } | { user: string; accessToken: string } | null;
  /** Extra trust for self-signed test peers; production leaves it unset. */
  ca?: string[];
  timeoutMs?: number;
  /** The name the certificate must carry when `host` is an address already resolved and checked. */
  servername?: string;
};

export type OutgoingAttachment = { filename: string; content: Uint8Array; contentType: string; cid?: string | null };

export type OutgoingMail = {
  from: { name: string; address: string };
  to: string[];
  cc: string[];
  /** Envelope recipients only: nodemailer leaves Bcc out of the message it writes. */
  bcc?: string[];
  replyTo?: string | null;
  subject: string;
  html: string;
  text: string;
  /** With angle brackets: `<id@domain>`. */
  messageId: string;
  inReplyTo?: string | null;
  references?: string[];
  headers?: Record<string, string>;
  attachments?: OutgoingAttachment[];
};

/** A failed send, classified: temporary failures (4xx, connection trouble) are worth retrying. */
export class SendFailure extends Error {
  constructor(
    message: string,
    readonly temporary: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export function transportOptions(settings: SmtpSettings): SMTPTransport.Options {
  const timeout = settings.timeoutMs ?? 20_000;
  const servername = settings.servername ?? (/^[\d.]+$|:/.test(settings.host) ? "localhost" : settings.host);
  const auth = settings.auth
    ? "accessToken" in settings.auth
      ? { type: "OAuth2" as const, user: settings.auth.user, accessToken: settings.auth.accessToken }
      : { user: settings.auth.user, pass: settings.auth.pass }
    : undefined;
  return {
    host: settings.host,
    port: settings.port,
    secure: settings.tls === "tls",
    requireTLS: settings.tls === "starttls",
    ignoreTLS: settings.tls === "none",
    auth,
    tls: { servername, ...(settings.ca ? { ca: settings.ca } : {}) },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 3,
    name: undefined,
  };
}

function mailOptions(mail: OutgoingMail) {
  return {
    from: mail.from,
    to: mail.to,
    cc: mail.cc.length ? mail.cc : undefined,
    bcc: mail.bcc?.length ? mail.bcc : undefined,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    inReplyTo: mail.inReplyTo ?? undefined,
    references: mail.references?.length ? mail.references : undefined,
    headers: mail.headers,
    attachments: (mail.attachments ?? []).map((a) => ({
      filename: a.filename,
      content: Buffer.from(a.content),
      contentType: a.contentType,
      ...(a.cid ? { cid: a.cid } : {}),
    })),
  };
}

function classify(error: unknown): SendFailure {
  const e = error as { responseCode?: number; code?: string; message?: string; response?: string };
  const code = e.responseCode;
  const text = (e.response ?? e.message ?? String(error)).slice(0, 500);
  // The cause keeps the library's error codes for callers that report a category instead of the text.
  const cause = { cause: error };
  if (typeof code === "number")
    return new SendFailure(`${code} ${text.replace(/^\d{3}\s*/, "")}`.trim(), code >= 400 && code < 500, cause);
  if (e.code === "EAUTH") return new SendFailure(`Authentication failed: ${text}`, false, cause);
  return new SendFailure(`Connection failed: ${text}`, true, cause);
}

/**
 * Open SMTP connections, reused from mail to mail: a connection per mail spent half of sending's CPU
 * on connecting, the greeting, EHLO and its capabilities, and QUIT (measured 1.2 → 0.6 ms a mail,
 * and twice the mails a second). One pool per server and login, keyed by every setting (a changed
 * password or a refreshed OAuth token opens a new pool). A pool closes once no mail has used it for
 * POOL_IDLE_MS: a burst shares its connections, a quiet desk holds none open. At most MAX_POOLS
 * are open (the least recently used closes first).
 */
type Pool = { transport: Transporter; idle: ReturnType<typeof setTimeout> | null; sending: number };
const pools = new Map<string, Pool>();
const POOL_IDLE_MS = 1_000;
const MAX_POOLS = 64;
const POOL_CONNECTIONS = 4;
const POOL_MESSAGES_PER_CONNECTION = 500;

function closePool(key: string, pool: Pool): void {
  if (pools.get(key) === pool) pools.delete(key);
  if (pool.idle) clearTimeout(pool.idle);
  pool.transport.close();
}

/** Closes every open SMTP connection (the desk stopping). */
export function closeSmtpPools(): void {
  for (const [key, pool] of pools) closePool(key, pool);
}

async function withPooledTransport<T>(
  settings: SmtpSettings,
  send: (transport: Transporter) => Promise<T>,
): Promise<T> {
  const options = transportOptions(settings);
  const key = sha256Hex(JSON.stringify(options));
  let pool = pools.get(key);
  if (pool) {
    // Most recently used last: the first entry is the one to close when too many are open.
    pools.delete(key);
  } else {
    const transport = (await loadNodemailer()).createTransport({
      ...options,
      pool: true,
      maxConnections: POOL_CONNECTIONS,
      maxMessages: POOL_MESSAGES_PER_CONNECTION,
    });
    pool = { transport, idle: null, sending: 0 };
    const oldest = pools.entries().next().value;
    if (pools.size >= MAX_POOLS && oldest) closePool(oldest[0], oldest[1]);
  }
  pools.set(key, pool);
  if (pool.idle) clearTimeout(pool.idle);
  pool.idle = null;
  pool.sending++;
  const used = pool;
  try {
    return await send(used.transport);
  } finally {
    used.sending--;
    if (used.sending === 0 && pools.get(key) === used) {
      used.idle = setTimeout(() => closePool(key, used), POOL_IDLE_MS);
      used.idle.unref();
    }
  }
}

/** Sends through an SMTP server; throws SendFailure. Answers the server's acceptance line. */
export async function sendViaSmtp(settings: SmtpSettings, mail: OutgoingMail): Promise<string> {
  try {
    const info = await withPooledTransport(settings, (transport) => transport.sendMail(mailOptions(mail)));
    return String(info.response ?? "");
  } catch (error) {
    throw classify(error);
  }
}

/** Logs in to an SMTP server without sending (the mailbox test). */
export async function verifySmtp(settings: SmtpSettings): Promise<void> {
  const transport = (await loadNodemailer()).createTransport(
    transportOptions({ ...settings, timeoutMs: settings.timeoutMs ?? 10_000 }),
  );
  try {
    await transport.verify();
  } catch (error) {
    throw classify(error);
  } finally {
    transport.close();
  }
}

/** Builds the RFC 822 bytes of a message (for the outbox and tests). */
export async function buildRawMail(mail: OutgoingMail): Promise<Buffer> {
  const transport = (await loadNodemailer()).createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
  });
  const info = await transport.sendMail(mailOptions(mail));
  return info.message as Buffer;
}

/**
 * With no relay configured, system mail is written as an .eml file under `outbox/` in the desk's
 * store: the outbox is the delivery. Answers where it went, for the log line.
 */
export async function writeToOutbox(blobs: BlobStore, mail: OutgoingMail, now: Date): Promise<string> {
  const name = `${now.toISOString().replace(/[:.]/g, "-")}-${mail.messageId.replace(/[^a-zA-Z0-9@.-]/g, "")}.eml`;
  const key = `outbox/${name}`;
  await blobs.put(key, await buildRawMail(mail), { contentType: "message/rfc822" });
  return blobs.describe(key);
}

/** `smtp://user:pass@host:port` (or smtps://) → settings. */
export function smtpSettingsFromUrl(url: string): SmtpSettings {
  const parsed = new URL(url);
  const secure = parsed.protocol === "smtps:";
  const user = decodeURIComponent(parsed.username);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ""),
    port: Number(parsed.port) || (secure ? 465 : 587),
    tls: secure
      ? "tls"
      : parsed.searchParams.get("tls") === "none"
        ? "none"
        : parsed.searchParams.get("tls") === "starttls"
          ? "starttls"
          : "opportunistic",
    auth: user ? { user, pass: decodeURIComponent(parsed.password) } : null,
  };
}
