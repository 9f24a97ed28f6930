/**
 * A plain-text mail body as HTML, written directly in the form sanitizeHtmlBody gives for
 * textToHtml(text): paragraphs at blank lines, `<br />` at single breaks, and only `&`, `<`, `>`
 * escaped (the sanitizer decodes the quote entities textToHtml writes). Producing that form here
 * lets the message be stored without running a 20 KB body through the HTML parser a second time;
 * inbound.text.test.ts holds the two forms equal.
 */
export function textToSanitizedHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((para) => `<p>${para.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;")).replace(/\n/g, "<br />")}</p>`)
    .join("");
}
