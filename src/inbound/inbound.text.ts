/**
 * A plain-text mail body as HTML, written directly in the form sanitizeHtmlBody gives for
 * textToHtml(text): paragraphs at blank lines, `<br />` at single breaks, and only `&`, `<`, `>`
 * escaped (the sanitizer decodes the quote entities textToHtml writes). Producing that form here
 * lets the message be stored without running a 20 KB body through the HTML parser a second time;
 * inbound.text.test.ts holds the two forms equal.
 */
export function textToSanitizedHtml(text: string): string {
  // Whole-text passes (no per-paragraph strings); each escape runs only when its character occurs.
  let html = text;
  if (html.includes("&")) html = html.replaceAll("&", "&amp;");
  if (html.includes("<")) html = html.replaceAll("<", "&lt;");
  if (html.includes(">")) html = html.replaceAll(">", "&gt;");
  return `<p>${html.replace(/\n{2,}/g, "</p><p>").replaceAll("\n", "<br />")}</p>`;
}
