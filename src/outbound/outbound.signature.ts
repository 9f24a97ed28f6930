import { htmlToText } from "../lib/sanitize";

/** Whitespace-insensitive text of some HTML, for telling whether a body already ends with the signature. */
const flatText = (html: string) => htmlToText(html).replace(/\s+/g, " ").trim().toLowerCase();

/**
 * A reply's HTML with its mailbox's signature under it, once: a body that already ends with the
 * signature (pasted, or from a saved reply) is left as it is. The signature was sanitized when the
 * mailbox was saved. Quoted history goes below the result (see replyBodies), so the signature stays
 * between the answer and the quote in both the HTML and the text part.
 */
export function withSignature(replyHtml: string, signatureHtml: string): string {
  const signature = flatText(signatureHtml);
  // A logo alone is a signature too; markup with neither text nor image is none.
  if (!signature && !/<img\b/i.test(signatureHtml)) return replyHtml;
  if (signature && flatText(replyHtml).endsWith(signature)) return replyHtml;
  return `${replyHtml}<br><div class="signature">${signatureHtml}</div>`;
}
