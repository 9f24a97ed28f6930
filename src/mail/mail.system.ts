import { PermanentFailure } from "../jobs/define";
import type { BlobStore } from "../lib/blob-store";
import { newId } from "../lib/ids";
import { escapeHtml } from "../lib/sanitize";
import { SendFailure, sendViaSmtp, smtpSettingsFromUrl, writeToOutbox, type OutgoingMail } from "./mail.send";

/** Desk's own mail (invitations, password resets): plain lines, the one link made an anchor in the HTML part. */
export type SystemMail = {
  to: string;
  subject: string;
  lines: string[];
  link: string;
  headers?: Record<string, string>;
  /** The HTML part when the lines' own rendering will not do (several links, such as a rating's scores). */
  html?: string;
  /** The sender's display name (default "Desk"): a customer-facing mail names the workspace. */
  fromName?: string;
};

type SystemMailConfig = { baseUrl: string; smtpRelayUrl: string | null; mailFrom?: string | null };

/**
 * Sends system mail from DESK_MAIL_FROM, else `no-reply@<base URL host>` (a relay may refuse a
 * sender domain it does not serve): through the DESK_SMTP_URL relay when set, else
 * as an .eml file under `outbox/` in the desk's store (DECISIONS.md). Returns where it went when the mail was
 * only written there, null when the relay took it. A refusal the relay will repeat is a
 * PermanentFailure, so the calling job stops retrying.
 */
export async function sendSystemMail(
  config: SystemMailConfig,
  now: Date,
  system: SystemMail,
  // The desk's one store (`deps.blobs`), never one built here from config: the outbox is wherever the
  // desk keeps its files (a remote bucket later, a test's recording store now).
  blobs: BlobStore,
): Promise<string | null> {
  const host = new URL(config.baseUrl).hostname;
  const link = escapeHtml(system.link);
  const anchor = `<a href="${link}">${link}</a>`;
  const mail: OutgoingMail = {
    from: { name: system.fromName ?? "Desk", address: config.mailFrom || `no-reply@${host}` },
    to: [system.to],
    cc: [],
    subject: system.subject,
    text: system.lines.join("\n"),
    html:
      system.html ??
      system.lines.map((line) => (line ? `<p>${escapeHtml(line).replace(link, () => anchor)}</p>` : "")).join(""),
    messageId: `<${newId()}@${host}>`,
    ...(system.headers ? { headers: system.headers } : {}),
  };
  if (!config.smtpRelayUrl) return writeToOutbox(blobs, mail, now);
  try {
    await sendViaSmtp(smtpSettingsFromUrl(config.smtpRelayUrl), mail);
  } catch (error) {
    if (error instanceof SendFailure && !error.temporary) throw new PermanentFailure(error.message);
    throw error;
  }
  return null;
}
