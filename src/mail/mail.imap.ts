import type { ImapFlow, ImapFlowOptions } from "imapflow";
import type { TlsMode } from "./mail.send";

export type ImapSettings = {
  host: string;
  port: number;
  tls: Exclude<TlsMode, "opportunistic">;
  auth: { user: string; pass: string } | { user: string; accessToken: string };
  /** Extra trust for self-signed peers (tests); production leaves it unset. */
  ca?: string[];
  timeoutMs?: number;
  /** The name the certificate must carry when `host` is an address already resolved and checked. */
  servername?: string;
};

/** Where a mailbox's sync stands: the folder's UIDVALIDITY and the last UID ingested. */
export type ImapPosition = { uidValidity: string | null; lastUid: number };

/** imapflow under Bun needs an explicit TLS servername, also for IP addresses (PLATFORM.md). */
function servernameOf(host: string): string {
  return /^[\d.]+$|:/.test(host) ? "localhost" : host;
}

export function imapOptions(settings: ImapSettings): ImapFlowOptions & { doSTARTTLS?: boolean } {
  const timeout = settings.timeoutMs ?? 15_000;
  const servername = settings.servername ?? servernameOf(settings.host);
  return {
    host: settings.host,
    port: settings.port,
    secure: settings.tls === "tls",
    doSTARTTLS: settings.tls === "starttls" ? true : settings.tls === "none" ? false : undefined,
    servername,
    tls: { servername, ...(settings.ca ? { ca: settings.ca } : {}) },
    auth: settings.auth,
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: 5 * 60_000,
  };
}

/** Connects and logs in; the caller logs out. Errors carry a readable message. */
export async function connectImap(settings: ImapSettings): Promise<ImapFlow> {
  // Loaded on first use, like every mail library: an instance without IMAP mailboxes never holds it in memory.
  const { ImapFlow } = await import("imapflow");
  const client = new ImapFlow(imapOptions(settings));
  // Errors after connect arrive as events; without a listener they would crash the process.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    client.close();
    throw new Error(describeImapError(error), { cause: error });
  }
  return client;
}

export function describeImapError(error: unknown): string {
  if (error instanceof Error && /^IMAP /.test(error.message)) return error.message;
  const e = error as { authenticationFailed?: boolean; responseText?: string; code?: string; message?: string };
  if (e.authenticationFailed) return `IMAP login failed${e.responseText ? `: ${e.responseText}` : ""}`;
  if (e.code === "ECONNREFUSED") return "IMAP connection refused";
  if (e.code === "ETIMEDOUT" || e.code === "ETIMEOUT" || e.code === "CONNECT_TIMEOUT" || e.code === "GREETING_TIMEOUT")
    return "IMAP server did not answer in time";
  if (e.code === "NoConnection" || e.code === "EConnectionClosed") return "IMAP connection closed";
  return `IMAP error: ${(e.responseText ?? e.message ?? String(error)).slice(0, 300)}`;
}

export async function verifyImap(settings: ImapSettings): Promise<void> {
  const client = await connectImap({ ...settings, timeoutMs: settings.timeoutMs ?? 10_000 });
  await client.logout().catch(() => client.close());
}

/**
 * Fetches INBOX messages above the stored position, oldest first, and hands each to `ingest`
 * before moving on; `advance` is called after each one so a restart neither skips nor repeats.
 * A changed UIDVALIDITY means the folder was rebuilt: start again from UID 1 (dedupe by
 * Message-ID keeps that from storing anything twice).
 */
export async function fetchNewMessages(
  client: ImapFlow,
  position: ImapPosition,
  ingest: (raw: Uint8Array, uid: number) => Promise<void>,
  advance: (position: ImapPosition) => void | Promise<void>,
): Promise<{ position: ImapPosition; fetched: number }> {
  const opened = await client.mailboxOpen("INBOX", { readOnly: true });
  const uidValidity = String(opened.uidValidity);
  let lastUid = position.uidValidity === uidValidity ? position.lastUid : 0;
  if (position.uidValidity !== uidValidity) await advance({ uidValidity, lastUid });
  let fetched = 0;
  if (opened.exists === 0 || (opened.uidNext !== undefined && opened.uidNext <= lastUid + 1))
    return { position: { uidValidity, lastUid }, fetched };
  // Collect UIDs first: running other work inside a FETCH iteration would stall the connection.
  const uids: number[] = [];
  for await (const message of client.fetch({ uid: `${lastUid + 1}:*` }, { uid: true }, { uid: true })) {
    if (message.uid > lastUid) uids.push(message.uid);
  }
  uids.sort((a, b) => a - b);
  for (const uid of uids) {
    const message = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
    if (message && message.source !== undefined) await ingest(new Uint8Array(message.source), uid);
    lastUid = uid;
    fetched++;
    await advance({ uidValidity, lastUid });
  }
  return { position: { uidValidity, lastUid }, fetched };
}
