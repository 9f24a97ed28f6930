import { htmlToText } from "../lib/sanitize";
import { attributionAt } from "./mail.quote.headers";

/**
 * The HTML side of quote trimming. Clients mark quoted history in their HTML (Gmail's
 * `gmail_quote`, Apple Mail and Thunderbird's `blockquote type=cite`, Outlook's `divRplyFwdMsg`,
 * Yahoo's `yahoo_quoted`, Hotmail's `hr#stopSpelling`); where such a container holds the rest of
 * the message it is cut, with the attribution line above it, and the HTML keeps its formatting.
 */

const CONTAINERS: RegExp[] = [
  /<(div|blockquote)\b[^>]*\bclass\s*=\s*["']?[^"'>]*\b(?:gmail_quote|yahoo_quoted|moz-cite-prefix)\b[^>]*>/i,
  /<(blockquote)\b[^>]*\btype\s*=\s*["']?cite\b[^>]*>/i,
  /<(div)\b[^>]*\bid\s*=\s*["']?(?:divRplyFwdMsg|appendonsend|OLK_SRC_BODY_SECTION)\b[^>]*>/i,
  /<(hr)\b[^>]*\bid\s*=\s*["']?stopSpelling\b[^>]*>/i,
];

export type TrimmedHtml = { html: string; text: string };

/** Cuts at the first quote container after which nothing visible follows; null when there is none. */
export function cutQuotedHtml(html: string): TrimmedHtml | null {
  let best: { index: number; tag: string; length: number } | null = null;
  for (const marker of CONTAINERS) {
    const match = marker.exec(html);
    if (match && (best === null || match.index < best.index))
      best = { index: match.index, tag: match[1]!.toLowerCase(), length: match[0].length };
  }
  if (best === null) return null;
  // Hotmail's rule has no container: everything below it is the quoted message.
  const end = best.tag === "hr" ? html.length : closingOf(html, best.tag, best.index + best.length);
  if (htmlToText(html.slice(end)).trim()) return null;
  let cut = best.index;
  let text = htmlToText(html.slice(0, cut));
  // The attribution ("On …, Bob wrote:") sits just above the container, in the visible part.
  const lines = text.split("\n");
  for (let start = Math.max(0, lines.length - 3); start < lines.length; start++) {
    if (attributionAt(lines, start).span !== lines.length - start) continue;
    const words = lines[start]!.trim().slice(0, 12);
    const at = findText(html, words, cut);
    if (at > 0) {
      cut = at;
      text = htmlToText(html.slice(0, cut));
    }
    break;
  }
  if (!text.trim()) return null;
  return { html: html.slice(0, cut), text };
}

/** Where the element opened before `from` closes (nesting of the same tag counted); the end when unclosed. */
function closingOf(html: string, tag: string, from: number): number {
  const pattern = new RegExp(`<(/?)${tag}\\b[^>]*>`, "gi");
  pattern.lastIndex = from;
  let depth = 1;
  for (let match = pattern.exec(html); match; match = pattern.exec(html)) {
    depth += match[1] ? -1 : 1;
    if (depth === 0) return match.index + match[0].length;
  }
  return html.length;
}

/** The last place before `before` where visible `words` start, tolerating entities for spaces. */
function findText(html: string, words: string, before: number): number {
  const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "(?:\\s|&nbsp;|&#160;)+");
  const pattern = new RegExp(escaped, "g");
  let found = -1;
  for (let match = pattern.exec(html); match && match.index < before; match = pattern.exec(html)) found = match.index;
  return found;
}

/**
 * The HTML as text with blockquotes marked `>` per level, so the plain-text reading sees which
 * lines are quoted (a plain rendering would make a quote above a bottom-posted answer look like
 * the customer's own words).
 */
export function htmlToQuotedText(html: string): string {
  const marked = html
    .replace(/<blockquote\b[^>]*>/gi, "\n[[desk-quote-open]]\n")
    .replace(/<\/blockquote\s*>/gi, "\n[[desk-quote-close]]\n");
  let depth = 0;
  const out: string[] = [];
  for (const line of htmlToText(marked).split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "[[desk-quote-open]]") depth++;
    else if (trimmed === "[[desk-quote-close]]") depth = Math.max(0, depth - 1);
    else out.push(depth > 0 ? `${">".repeat(depth)} ${line}` : line);
  }
  return out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
