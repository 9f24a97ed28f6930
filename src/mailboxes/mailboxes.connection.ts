import { eq } from "drizzle-orm";
import type { Config, OAuthProviderConfig } from "../config/config";
import type { Db } from "../db/database";
import type { SecretBox } from "../lib/crypto";
import type { ImapSettings } from "../mail/mail.imap";
import { smtpSettingsFromUrl, type SmtpSettings } from "../mail/mail.send";
import type { MailboxRow } from "./mailboxes.present";
import { mailboxes, type MailboxConfig, type OAuthProvider } from "./mailboxes.table";
import type { Clock } from "../lib/clock";
import { validationFailed, type FieldError } from "../lib/errors";
import { assertPublicHost, parseIp, UnsafeUrlError } from "../lib/ssrf";

export type ConnectionDeps = { db: Db; clock: Clock; secrets: SecretBox; config: Config };

export type OAuthTokens = { access_token: string; refresh_token: string | null; expires_at: string | null };

function hostPort(value: string, defaultPort: number): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(value.trim());
  return { host: match?.[1] ?? value, port: match?.[2] ? Number(match[2]) : defaultPort };
}

export function providerConfig(config: Config, provider: OAuthProvider): OAuthProviderConfig | null {
  return config.oauthProviders[provider];
}

/** Exchanges a refresh token at the provider (RFC 6749 §6). */
export async function refreshOAuthTokens(
  provider: OAuthProviderConfig,
  refreshToken: string,
  now: Date,
): Promise<OAuthTokens> {
  const response = await fetch(provider.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
    }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    refresh_token?: string;
    expires_in?: number;
    error?: string;
  };
  if (!response.ok || !body.access_token)
    throw new Error(`token refresh failed: ${body.error ?? `HTTP ${response.status}`}`);
  return {
    access_token: body.access_token,
    refresh_token: body.refresh_token ?? refreshToken,
    expires_at: body.expires_in ? new Date(now.getTime() + body.expires_in * 1000).toISOString() : null,
  };
}

/** A valid access token for an OAuth mailbox, refreshed (and re-sealed) when it is about to expire. */
export async function oauthAccessToken(
  deps: ConnectionDeps,
  row: MailboxRow,
  provider: OAuthProvider,
): Promise<string> {
  if (!row.oauthSealed) throw new Error("mailbox is not connected to its provider");
  const tokens = JSON.parse(deps.secrets.open(row.oauthSealed)) as OAuthTokens;
  const expiresSoon =
    tokens.expires_at !== null && new Date(tokens.expires_at).getTime() - deps.clock.now().getTime() < 60_000;
  if (!expiresSoon) return tokens.access_token;
  const settings = providerConfig(deps.config, provider);
  if (!settings || !tokens.refresh_token) throw new Error("the provider access token expired; reconnect the mailbox");
  const fresh = await refreshOAuthTokens(settings, tokens.refresh_token, deps.clock.now());
  await deps.db
    .update(mailboxes)
    .set({ oauthSealed: deps.secrets.seal(JSON.stringify(fresh)) })
    .where(eq(mailboxes.id, row.id));
  return fresh.access_token;
}

/**
 * A workspace admin's IMAP or SMTP host passes the SSRF guard again right before every connection
 * (its DNS may have changed since it was saved), and the connection goes to the address just
 * checked, with the name kept for the certificate. Provider and relay hosts are the operator's.
 */
async function checkedTarget(deps: ConnectionDeps, rawHost: string): Promise<{ host: string; servername?: string }> {
  const { host, addresses } = await assertPublicHost(rawHost, deps.config.allowedPrivateHosts);
  const address = addresses[0] ?? host;
  return parseIp(host) ? { host: address } : { host: address, servername: host };
}

/**
 * At save: each host the body names must pass the same guard (private, loopback and link-local
 * addresses only when DESK_ALLOWED_PRIVATE_HOSTS lists them); 422 at the field otherwise.
 */
export async function assertMailHostsAllowed(
  config: Pick<MailboxConfig, "imap_host" | "smtp_host"> | undefined,
  deps: Pick<ConnectionDeps, "config">,
): Promise<void> {
  const errors: FieldError[] = [];
  for (const key of ["imap_host", "smtp_host"] as const) {
    const host = config?.[key];
    if (!host) continue;
    try {
      await assertPublicHost(host, deps.config.allowedPrivateHosts);
    } catch (error) {
      if (!(error instanceof UnsafeUrlError)) throw error;
      errors.push({ location: `body.config.${key}`, message: hostRefusal(error) });
    }
  }
  if (errors.length) throw validationFailed(errors);
}

const hostRefusal = (error: UnsafeUrlError) =>
  /does not resolve/.test(error.message)
    ? "This host does not resolve."
    : /not a valid/.test(error.message)
      ? "This is not a valid host name or address."
      : "This host is a private, loopback or link-local address; the operator must list it in DESK_ALLOWED_PRIVATE_HOSTS.";

/** How to reach the mailbox's IMAP server, or null for forwarding mailboxes. */
export async function imapSettingsOf(deps: ConnectionDeps, row: MailboxRow): Promise<ImapSettings | null> {
  const ca = deps.config.mailCa ?? undefined;
  if (row.inboundKind === "imap") {
    const tls = row.config.imap_tls ?? "tls";
    return {
      ...(await checkedTarget(deps, row.config.imap_host ?? "")),
      port: row.config.imap_port ?? (tls === "tls" ? 993 : 143),
      tls,
      auth: {
        user: row.config.imap_username ?? row.email,
        pass: row.passwordSealed ? deps.secrets.open(row.passwordSealed) : "",
      },
      ca,
    };
  }
  if (row.inboundKind === "provider_a" || row.inboundKind === "provider_b") {
    const provider = providerConfig(deps.config, row.inboundKind);
    if (!provider?.imapHost) throw new Error(`${row.inboundKind} has no IMAP host configured`);
    const { host, port } = hostPort(provider.imapHost, 993);
    const accessToken = await oauthAccessToken(deps, row, row.inboundKind);
    return {
      host,
      port,
      tls: port === 143 ? "starttls" : "tls",
      auth: { user: row.config.oauth_email ?? row.email, accessToken },
      ca,
    };
  }
  return null;
}

/** How to send as the mailbox; null means "write to the outbox" (system mail without a relay). */
export async function smtpSettingsOf(deps: ConnectionDeps, row: MailboxRow): Promise<SmtpSettings | null> {
  const ca = deps.config.mailCa ?? undefined;
  if (row.outboundKind === "smtp") {
    const tls = row.config.smtp_tls ?? "starttls";
    const pass = row.smtpPasswordSealed ?? row.passwordSealed;
    return {
      ...(await checkedTarget(deps, row.config.smtp_host ?? "")),
      port: row.config.smtp_port ?? (tls === "tls" ? 465 : 587),
      tls,
      auth: row.config.smtp_username
        ? { user: row.config.smtp_username, pass: pass ? deps.secrets.open(pass) : "" }
        : null,
      ca,
    };
  }
  if (row.outboundKind === "provider_a" || row.outboundKind === "provider_b") {
    const provider = providerConfig(deps.config, row.outboundKind);
    if (!provider?.smtpHost) throw new Error(`${row.outboundKind} has no SMTP host configured`);
    const { host, port } = hostPort(provider.smtpHost, 587);
    const accessToken = await oauthAccessToken(deps, row, row.outboundKind);
    return {
      host,
      port,
      tls: port === 465 ? "tls" : "starttls",
      auth: { user: row.config.oauth_email ?? row.email, accessToken },
      ca,
    };
  }
  return deps.config.smtpRelayUrl ? smtpSettingsFromUrl(deps.config.smtpRelayUrl) : null;
}
