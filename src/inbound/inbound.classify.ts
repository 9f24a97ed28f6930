import { messageIdsIn, type ParsedEmail } from "../mail/mail.parse";

const first = (email: ParsedEmail, name: string): string => email.headers.get(name)?.[0]?.trim() ?? "";

/**
 * Mail written by a machine: out-of-office replies, mailing lists, bulk senders. It may be stored,
 * but never answered automatically, so two auto-responders cannot loop (RFC 3834).
 */
export function isAutomated(email: ParsedEmail): boolean {
  const autoSubmitted = first(email, "auto-submitted").toLowerCase();
  if (autoSubmitted && autoSubmitted !== "no") return true;
  if (/^(bulk|list|junk|auto_reply)$/i.test(first(email, "precedence"))) return true;
  for (const name of [
    "list-id",
    "list-unsubscribe",
    "x-autoreply",
    "x-autorespond",
    "x-auto-response-suppress",
    "feedback-id",
  ]) {
    if (email.headers.has(name)) {
      // X-Auto-Response-Suppress on an ordinary Outlook message asks *us* not to auto-reply: honour it too.
      return true;
    }
  }
  const from = email.from?.email ?? "";
  return /^(mailer-daemon|postmaster|no-?reply|do-?not-?reply)@/i.test(from);
}

export type DmarcVerdict = "pass" | "fail" | "none";

/**
 * DMARC from Authentication-Results headers added by servers we trust (by authserv-id). Headers
 * from anyone else could be forged by the sender and are ignored.
 */
export function dmarcVerdict(email: ParsedEmail, trustedServers: string[]): DmarcVerdict {
  if (trustedServers.length === 0) return "none";
  const trusted = new Set(trustedServers.map((s) => s.toLowerCase()));
  let verdict: DmarcVerdict = "none";
  for (const value of email.headers.get("authentication-results") ?? []) {
    const authservId = value.split(";")[0]?.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
    if (!trusted.has(authservId)) continue;
    const match = /\bdmarc\s*=\s*([a-z]+)/i.exec(value);
    if (!match) continue;
    const result = match[1]!.toLowerCase();
    if (result === "fail") return "fail";
    if (result === "pass") verdict = "pass";
  }
  return verdict;
}

export type BounceReport = { originalMessageIds: string[]; permanent: boolean; diagnostic: string };

/**
 * A delivery status notification (RFC 3464): the ids of the message that bounced and whether it
 * failed for good (5.x.x / Action: failed) or was only delayed.
 */
export function bounceReport(email: ParsedEmail): BounceReport | null {
  const contentType = first(email, "content-type").toLowerCase();
  const statusPart = email.attachments.find((a) => a.contentType === "message/delivery-status");
  const isReport = contentType.includes("multipart/report") && contentType.includes("delivery-status");
  if (!isReport && !statusPart) return null;
  const statusText = statusPart ? new TextDecoder().decode(statusPart.content) : email.text;
  const action = /^Action:\s*(\S+)/im.exec(statusText)?.[1]?.toLowerCase() ?? "failed";
  const status = /^Status:\s*(\d)\.\d+\.\d+/im.exec(statusText)?.[1];
  const diagnostic = (
    /^Diagnostic-Code:\s*(.+)$/im.exec(statusText)?.[1] ??
    /^Status:\s*(.+)$/im.exec(statusText)?.[1] ??
    "bounced"
  )
    .trim()
    .slice(0, 300);
  const ids = new Set<string>();
  for (const part of email.attachments) {
    if (
      part.contentType === "message/rfc822" ||
      part.contentType === "text/rfc822-headers" ||
      part.contentType === "message/rfc822-headers"
    ) {
      const headerText = new TextDecoder().decode(part.content.subarray(0, 64 * 1024));
      const match = /^Message-ID:\s*(.+)$/im.exec(headerText);
      for (const id of messageIdsIn(match?.[1])) ids.add(id);
    }
  }
  for (const id of messageIdsIn(/^Original-Message-ID:\s*(.+)$/im.exec(statusText)?.[1])) ids.add(id);
  if (ids.size === 0) for (const id of email.inReplyTo) ids.add(id);
  return { originalMessageIds: [...ids], permanent: action === "failed" || status === "5", diagnostic };
}

/** `[#123]` in a subject: the ticket token our outbound subjects carry. */
export function subjectTicketNumber(subject: string): number | null {
  const match = /\[#(\d{1,9})\]/.exec(subject);
  return match ? Number(match[1]) : null;
}

/** `support+123@acme.test` → 123, the plus-address form of the ticket token. */
export function plusAddressTicketNumber(address: string): number | null {
  const match = /^[^@+]+\+(?:t)?(\d{1,9})@/i.exec(address);
  return match ? Number(match[1]) : null;
}

export const stripPlus = (address: string): string => address.replace(/^([^@+]+)\+[^@]*@/, "$1@");
