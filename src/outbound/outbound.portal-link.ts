import { t } from "../i18n/i18n";
import type { Locale } from "../i18n/locales";
import { escapeHtml } from "../lib/sanitize";

/**
 * "View your request" under a reply to the customer: the ticket's page in the customer portal, by
 * the address that redirects to `{base_url}/portal/{workspace_slug}/tickets/{number}` (the mail is
 * built from ids; a slug renamed later still leads there). The address is shown as well as linked,
 * since the mail's text part keeps no link targets.
 */
export function withPortalLink(
  html: string,
  baseUrl: string,
  workspaceId: string,
  ticketNumber: number,
  locale: Locale = "en",
): string {
  const url = escapeHtml(`${baseUrl}/portal/-/requests/${encodeURIComponent(workspaceId)}/${ticketNumber}`);
  return `${html}<p>${escapeHtml(t(locale, "mail.view_request"))}: <a href="${url}">${url}</a></p>`;
}
