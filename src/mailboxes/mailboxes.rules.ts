import { invalidAt, validationFailed, type FieldError } from "../lib/errors";
import type { InboundKind, MailboxConfig, OutboundKind } from "./mailboxes.table";

/** Domains anyone can get an address at: trusting "@gmail.com" would trust everyone. */
export const PUBLIC_EMAIL_DOMAINS = new Set([
  "gmail.com",
  "googlemail.com",
  "outlook.com",
  "hotmail.com",
  "hotmail.co.uk",
  "live.com",
  "msn.com",
  "yahoo.com",
  "yahoo.co.uk",
  "yahoo.fr",
  "ymail.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "aol.com",
  "proton.me",
  "protonmail.com",
  "pm.me",
  "gmx.com",
  "gmx.de",
  "gmx.net",
  "web.de",
  "mail.com",
  "zoho.com",
  "yandex.com",
  "yandex.ru",
  "mail.ru",
  "qq.com",
  "163.com",
  "126.com",
  "fastmail.com",
  "hey.com",
  "tutanota.com",
  "tuta.io",
  "comcast.net",
  "t-online.de",
  "orange.fr",
  "free.fr",
  "laposte.net",
  "libero.it",
  "seznam.cz",
  "naver.com",
  "rediffmail.com",
]);

const ADDRESS_RE = /^[^\s@<>()",;:]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;
const DOMAIN_RE = /^@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Lower-cases and checks each entry: an exact address or `@domain`, never a public provider's domain. */
export function normalizeTrustedSenders(entries: string[]): string[] {
  const errors: FieldError[] = [];
  const out: string[] = [];
  entries.forEach((raw, index) => {
    const entry = raw.trim().toLowerCase();
    const location = `body.trusted_form_senders.${index}`;
    if (entry.startsWith("@")) {
      if (!DOMAIN_RE.test(entry)) errors.push({ location, message: "Enter an address or @domain." });
      else if (PUBLIC_EMAIL_DOMAINS.has(entry.slice(1)))
        errors.push({
          location,
          message: `${entry} is a public email provider; list the form's exact sending address instead.`,
        });
      else out.push(entry);
    } else if (!ADDRESS_RE.test(entry)) {
      errors.push({ location, message: "Enter an address or @domain." });
    } else out.push(entry);
  });
  if (errors.length) throw validationFailed(errors);
  return [...new Set(out)];
}

/** Whether a sender address is listed (exactly, or by its domain). */
export function isTrustedSender(list: string[], address: string): boolean {
  const email = address.toLowerCase();
  const domain = email.slice(email.lastIndexOf("@"));
  return list.includes(email) || list.includes(domain);
}

/** The connection settings each kind needs, located at body.config.<key>. */
export function checkKindSettings(
  inbound: InboundKind,
  outbound: OutboundKind,
  config: MailboxConfig,
  hasPassword: boolean,
  hasSmtpPassword: boolean,
  oauthConnected: boolean,
): void {
  const errors: FieldError[] = [];
  if (inbound === "imap") {
    if (!config.imap_host)
      errors.push({ location: "body.config.imap_host", message: "IMAP mailboxes need an IMAP host." });
    if (!config.imap_username)
      errors.push({ location: "body.config.imap_username", message: "IMAP mailboxes need an IMAP user name." });
    if (!hasPassword) errors.push({ location: "body.password", message: "IMAP mailboxes need a password." });
  }
  if (outbound === "smtp") {
    if (!config.smtp_host)
      errors.push({ location: "body.config.smtp_host", message: "SMTP sending needs an SMTP host." });
    if (config.smtp_username && !hasSmtpPassword && !hasPassword)
      errors.push({ location: "body.smtp_password", message: "SMTP sending with a user name needs a password." });
  }
  if (
    (inbound === "provider_a" || inbound === "provider_b" || outbound === "provider_a" || outbound === "provider_b") &&
    !oauthConnected
  ) {
    throw invalidAt(
      "body.inbound_kind",
      "Connect provider mailboxes through POST /v1/mailboxes/oauth/{provider}/start.",
    );
  }
  if (errors.length) throw validationFailed(errors);
}
