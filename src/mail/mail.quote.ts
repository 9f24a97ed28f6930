import { cutQuotedHtml, htmlToQuotedText } from "./mail.quote.html";
import { trimQuotedText } from "./mail.quote.text";

/**
 * Trims quoted history from an inbound reply so agents read what is new; the full original stays
 * stored (GET /v1/messages/{id}/original). The HTML and the text show the same reply:
 * - HTML whose client marked the quote (mail.quote.html.ts) is cut there and keeps its formatting;
 *   the text is the plain part trimmed the same way, or the cut HTML as text when they differ;
 * - otherwise the reply is read as text (the plain part, or the HTML with its quotes marked) and
 *   trimmed by mail.quote.text.ts; a trimmed reply is then stored from that text (`html: null`).
 * `hasQuoted` is true exactly when something was removed. When unsure, nothing is.
 */

export type TrimmedBody = { html: string | null; text: string; hasQuoted: boolean };

const flat = (text: string): string => text.replace(/[\s\u00a0\u200b\u202f\ufeff]+/g, " ").trim();
/**
 * A plain part writes a link as its text and address ("Sent with Sparrow (http://…)", Outlook's
 * "text<http://…>"), the HTML as its text alone: addresses aside, the two say the same.
 */
const withoutAddresses = (text: string): string =>
  flat(text.replace(/\s*(?:\(https?:[^\s()]*\)|<(?:https?|mailto):[^\s<>]*>)/g, ""));
const sameReply = (plain: string, fromHtml: string): boolean =>
  flat(plain) === flat(fromHtml) || withoutAddresses(plain) === withoutAddresses(fromHtml);

export function trimQuoted(html: string | null, text: string): TrimmedBody {
  if (html === null) {
    const trimmed = trimQuotedText(text);
    return { html: null, text: trimmed.text, hasQuoted: trimmed.trimmed };
  }
  const structural = cutQuotedHtml(html);
  if (structural !== null) {
    // What is left may still end in an unmarked header block (Outlook's "From: … Sent: …").
    const further = trimQuotedText(structural.text);
    if (!further.trimmed) {
      const plain = text.trim() ? trimQuotedText(text).text : "";
      return {
        html: structural.html,
        text: plain && sameReply(plain, structural.text) ? plain : structural.text,
        hasQuoted: true,
      };
    }
    return { html: null, text: further.text, hasQuoted: true };
  }
  // No marked container: read the reply as text, the plain part when there is one.
  const source = text.trim() ? text : htmlToQuotedText(html);
  const trimmed = trimQuotedText(source);
  if (!trimmed.trimmed) return { html, text, hasQuoted: false };
  return { html: null, text: trimmed.text, hasQuoted: true };
}
