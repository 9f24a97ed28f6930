import type { RequestContext } from "../auth/context";
import { verifyImap } from "../mail/mail.imap";
import { verifySmtp } from "../mail/mail.send";
import { UnsafeUrlError } from "../lib/ssrf";
import { imapSettingsOf, smtpSettingsOf, type ConnectionDeps } from "./mailboxes.connection";
import { outboundVia } from "./mailboxes.present";
import { getMailbox, recordMailboxHealth } from "./mailboxes.service";

export const CHECK_FAILURES = {
  host_not_allowed:
    "The host is a private, loopback or link-local address; the operator must list it in DESK_ALLOWED_PRIVATE_HOSTS.",
  host_not_found: "The host name does not resolve.",
  connection_refused: "The server refused the connection: nothing listens on that port.",
  timeout: "The server did not answer in time.",
  tls_failed: "The TLS handshake failed: check the TLS setting and the server's certificate.",
  auth_failed: "The server refused the user name or password.",
  connection_closed: "The server closed the connection.",
  protocol_error: "The server did not answer as a mail server does: check the host, port and TLS setting.",
  not_configured: "The mailbox is not set up to connect.",
} as const;
export type CheckFailure = keyof typeof CHECK_FAILURES;
export type CheckResult = { ok: boolean; category: CheckFailure | null; error: string };

const failed = (category: CheckFailure, error: string = CHECK_FAILURES[category]): CheckResult => ({
  ok: false,
  category,
  error,
});

const TIMEOUT_CODES = new Set([
  "ETIMEDOUT",
  "ETIMEOUT",
  "CONNECT_TIMEOUT",
  "GREETING_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const CLOSED_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNECTION", "NoConnection", "EConnectionClosed"]);
const TLS_CODE = /^(ERR_TLS|ERR_SSL|ERR_OSSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|ETLS$|HOSTNAME_MISMATCH)/;

/**
 * What went wrong, as a category read from the library's error codes (through the cause chain),
 * never from the server's words: an admin could otherwise point a mailbox at any service Desk can
 * reach and read its banner back (a port scanner with a screen).
 */
export function failureCategory(error: unknown): CheckFailure {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof UnsafeUrlError) return /does not resolve/.test(e.message) ? "host_not_found" : "host_not_allowed";
    const fields = e as {
      code?: unknown;
      originalCode?: unknown;
      responseCode?: unknown;
      authenticationFailed?: unknown;
      library?: unknown;
    };
    // nodemailer files socket errors under ESOCKET and keeps the system's code as originalCode.
    const code =
      typeof fields.originalCode === "string" && fields.code !== "EAUTH"
        ? fields.originalCode
        : typeof fields.code === "string"
          ? fields.code
          : "";
    if (fields.library === "SSL routines") return "tls_failed";
    if (fields.authenticationFailed === true || code === "EAUTH") return "auth_failed";
    if (code === "ECONNREFUSED") return "connection_refused";
    if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EDNS") return "host_not_found";
    if (TIMEOUT_CODES.has(code)) return "timeout";
    if (TLS_CODE.test(code)) return "tls_failed";
    if (CLOSED_CODES.has(code)) return "connection_closed";
    if (typeof fields.responseCode === "number" && [530, 534, 535].includes(fields.responseCode)) return "auth_failed";
  }
  return "protocol_error";
}

/**
 * Settings come first (Desk's own words, e.g. a provider not connected, are safe to show), then
 * the connection, whose failures are reported only by category.
 */
async function check<S>(settingsOf: () => Promise<S | null>, connect: (settings: S) => Promise<void>) {
  let settings: S | null;
  try {
    settings = await settingsOf();
  } catch (error) {
    const category = failureCategory(error);
    if (category !== "protocol_error") return failed(category);
    return failed(
      "not_configured",
      error instanceof Error ? error.message.slice(0, 300) : CHECK_FAILURES.not_configured,
    );
  }
  try {
    if (settings) await connect(settings);
    return { ok: true, category: null, error: "" } satisfies CheckResult;
  } catch (error) {
    return failed(failureCategory(error));
  }
}

/** What the test answers for a system mailbox with no relay: nothing is delivered, so not ok. */
export const OUTBOX_ONLY =
  "No mail server to send through: DESK_SMTP_URL is not set, so replies from this mailbox are only written as .eml files to the outbox folder on the server and never reach the customer. Set DESK_SMTP_URL or give the mailbox its own SMTP server.";

/**
 * Really logs in to the mailbox's IMAP and SMTP servers. Forwarding mailboxes have nothing to
 * log in to inbound. System outbound without a relay cannot deliver: the test says so (never ok),
 * but that is configuration, not a fault of the mailbox, so it does not set the mailbox's status.
 * Otherwise the outcome updates status and last_error so the list shows what the test found.
 */
export async function testMailboxConnection(
  ctx: RequestContext,
  id: string,
  deps: ConnectionDeps,
): Promise<{ inbound: CheckResult; outbound: CheckResult }> {
  const row = await getMailbox(deps.db, ctx, id);
  const inbound = await check(
    () => imapSettingsOf(deps, row),
    (settings) => verifyImap(settings),
  );
  const relayConfigured = deps.config.smtpRelayUrl !== null;
  const outboxOnly = outboundVia(row, relayConfigured) === "outbox";
  const outbound = outboxOnly
    ? failed("not_configured", OUTBOX_ONLY)
    : await check(
        () => smtpSettingsOf(deps, row),
        (settings) => verifySmtp({ ...settings, timeoutMs: 10_000 }),
      );
  const failure = !inbound.ok ? inbound.error : !outbound.ok && !outboxOnly ? `SMTP: ${outbound.error}` : null;
  await recordMailboxHealth(
    deps.db,
    row.id,
    failure ? { ok: false, error: failure } : { ok: true },
    relayConfigured,
    deps.clock,
  );
  return { inbound, outbound };
}
