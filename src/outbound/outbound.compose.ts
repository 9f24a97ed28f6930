import { t } from "../i18n/i18n";
import { DEFAULT_LOCALE, type Locale } from "../i18n/locales";
import { escapeHtml, htmlToText, sanitizeHtmlBody } from "../lib/sanitize";
import type { MessageRow } from "../tickets/tickets.public";

/** The bodies of one outgoing mail: the HTML part and its plain-text twin. */
export type MailBodies = { html: string; text: string };

/** A forward quotes at most this many of the conversation's newest replies... */
export const FORWARD_MAX_MESSAGES = 50;
/** ...and stops at this much quoted HTML, so a long thread cannot make mail servers refuse the mail. */
const FORWARD_MAX_HTML = 2_000_000;

// Gmail's own quote markup: mail clients (and our inbound trimming) recognise it and fold the history away.
const QUOTE_STYLE = "margin:0 0 0 .8ex;border-left:1px solid #ccc;padding-left:1ex";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/** "Mon, 23 Nov 2026 at 10:00 UTC": the date of an attribution line, the same on every server. */
export function attributionDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} at ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/** A name or address from a customer's mail, on one line: control characters could break the layout of a line we write. */
const oneLine = (value: string) =>
  value
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/ {2,}/g, " ")
    .trim();

/** Who wrote a message, as an attribution names them: "Carol <carol@customer.test>". */
export function senderLabel(name: string, email: string): string {
  const cleanName = oneLine(name);
  const cleanEmail = oneLine(email);
  if (!cleanEmail) return cleanName;
  return cleanName && cleanName.toLowerCase() !== cleanEmail.toLowerCase()
    ? `${cleanName} <${cleanEmail}>`
    : `<${cleanEmail}>`;
}

/**
 * HTML as mail text with its paragraphs kept: htmlToText ends a block with one line break, which
 * runs paragraphs together in a text-only reader; mail text separates them with a blank line.
 */
export function paragraphText(html: string): string {
  return htmlToText(html.replace(/<\/\s*(p|h[1-6]|ul|ol|blockquote|pre|table)\s*>/gi, "$&<br>"));
}

/** Text quoted the way mail clients do: every line behind "> " (an empty line is ">"). */
const quoteLines = (text: string) =>
  text
    .split("\n")
    .map((line) => (line ? `> ${line}` : ">"))
    .join("\n");

/** The earlier message as HTML: sanitized again here, as it is the customer's markup going out in our name. */
const quotedHtml = (message: Pick<MessageRow, "bodyHtml">) => sanitizeHtmlBody(message.bodyHtml);

/**
 * The attribution in the contact's language, worded as Gmail words it there ("Am … schrieb …:"),
 * which mail clients and our own inbound trimming (src/mail/mail.quote.headers.ts) recognise.
 */
function attributionLine(locale: Locale, previous: MessageRow): string {
  const at = new Date(previous.createdAt);
  const date =
    locale === DEFAULT_LOCALE || Number.isNaN(at.getTime())
      ? attributionDate(previous.createdAt)
      : `${new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "short", timeZone: "UTC" }).format(at)} UTC`;
  return t(locale, "mail.reply_attribution", { date, sender: senderLabel(previous.fromName, previous.fromEmail) });
}

/**
 * A reply with the customer's previous message quoted under it, Gmail-style: an attribution line
 * "On <date>, <name> <<email>> wrote:", then the message in a blockquote (HTML) or behind ">" (text).
 * Without a previous message the reply goes alone.
 */
export function replyBodies(
  replyHtml: string,
  previous: MessageRow | undefined,
  locale: Locale = DEFAULT_LOCALE,
): MailBodies {
  const text = paragraphText(replyHtml);
  if (!previous) return { html: replyHtml, text };
  const attribution = attributionLine(locale, previous);
  const html =
    `${replyHtml}<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">${escapeHtml(attribution)}<br></div>` +
    `<blockquote class="gmail_quote" style="${QUOTE_STYLE}">${quotedHtml(previous)}</blockquote></div>`;
  const quoted = paragraphText(previous.bodyHtml) || previous.bodyText;
  return { html, text: `${text}\n\n${attribution}\n${quoteLines(quoted)}` };
}

/**
 * A forward: the agent's note (if any), then the conversation's replies oldest first, each under a
 * "From:/Date:" header, as mail clients lay out a forwarded conversation. `sender` names the author
 * of each message (our replies carry the mailbox's name, not a stored From).
 */
export function forwardBodies(
  noteHtml: string,
  subject: string,
  conversation: MessageRow[],
  sender: (message: MessageRow) => string,
): MailBodies {
  // Newest first while counting, so a thread too long for one mail keeps its latest messages.
  const kept: MessageRow[] = [];
  let size = 0;
  for (const message of [...conversation].reverse()) {
    size += message.bodyHtml.length;
    if (size > FORWARD_MAX_HTML && kept.length > 0) break;
    kept.unshift(message);
  }
  const left = conversation.length - kept.length;
  const intro = "---------- Forwarded conversation ----------";
  const omitted = left > 0 ? `(${left} earlier message${left === 1 ? "" : "s"} not included)` : "";
  const htmlParts = kept.map(
    (m) =>
      `<div>From: ${escapeHtml(sender(m))}<br>Date: ${escapeHtml(attributionDate(m.createdAt))}<br></div>` +
      `<blockquote class="gmail_quote" style="${QUOTE_STYLE}">${quotedHtml(m)}</blockquote>`,
  );
  const html =
    `${noteHtml}${noteHtml ? "<br>" : ""}<div class="gmail_quote"><div>${intro}<br>Subject: ${escapeHtml(oneLine(subject))}<br>` +
    `${omitted ? `${escapeHtml(omitted)}<br>` : ""}</div><br>${htmlParts.join("<br>")}</div>`;
  const textParts = kept.map(
    (m) =>
      `From: ${sender(m)}\nDate: ${attributionDate(m.createdAt)}\n\n${quoteLines(paragraphText(m.bodyHtml) || m.bodyText)}`,
  );
  const head = [intro, `Subject: ${oneLine(subject)}`, ...(omitted ? [omitted] : [])].join("\n");
  const note = paragraphText(noteHtml);
  return { html, text: `${note ? `${note}\n\n` : ""}${head}\n\n${textParts.join("\n\n")}` };
}
