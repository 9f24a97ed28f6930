import { htmlToText } from "../lib/sanitize";
import { attributionAt } from "./mail.quote.headers";

/**
 * The HTML side of quote trimming. Clients mark quoted history in their HTML (Gmail's
 * `gmail_quote`, Apple Mail and Thunderbird's `blockquote type=cite`, Outlook's `divRplyFwdMsg`,
 * Yahoo's `yahoo_quoted`, Hotmail's `hr#stopSpelling`); where such a container holds the rest of
 * the message it is cut, with the attribution line above it, and the HTML keeps its formatting.
 */

/**
 * Each client's quote container. Gmail: `div.gmail_quote`; Yahoo: `div.yahoo_quoted`; Thunderbird:
 * `div.moz-cite-prefix` then `blockquote type=cite`; Apple Mail (macOS, iOS): `blockquote
 * type=cite`; Outlook on the web and new Outlook: `div#divRplyFwdMsg` (with `#appendonsend` above
 * it), Outlook for Mac `#OLK_SRC_BODY_SECTION`; Hotmail: `hr#stopSpelling`; Proton:
 * `div.protonmail_quote`; Zoho: `div.zmail_extra`; GMX and Web.de: `div[name=quote]`.
 */
const CONTAINER_MARKS: Array<{ tags: string[]; attribute: RegExp }> = [
  {
    tags: ["div", "blockquote"],
    attribute:
      /\bclass\s*=\s*["']?[^"'<>]*?\b(?:gmail_quote|yahoo_quoted|moz-cite-prefix|protonmail_quote|zmail_extra)\b/i,
  },
  { tags: ["blockquote"], attribute: /\btype\s*=\s*["']?cite\b/i },
  { tags: ["div"], attribute: /\bid\s*=\s*["']?(?:divRplyFwdMsg|appendonsend|OLK_SRC_BODY_SECTION)\b/i },
  { tags: ["div"], attribute: /\bname\s*=\s*["']?quote(?:["'\s]|$)/i },
  { tags: ["hr"], attribute: /\bid\s*=\s*["']?stopSpelling\b/i },
];
/** An opening tag that may be a container; `[^<>]` keeps each try to one tag, so the scan is linear. */
const OPENING = /<(div|blockquote|hr)\b([^<>]*)>/gi;
/** Containers tried per message: enough for a long thread of nested quotes, bounded for hostile HTML. */
const MAX_CANDIDATES = 200;

export type TrimmedHtml = { html: string; text: string };

type Container = { index: number; tag: string; length: number };

/** Candidate containers in document order. */
function containersOf(html: string): Container[] {
  const found: Container[] = [];
  for (const match of html.matchAll(OPENING)) {
    const tag = match[1]!.toLowerCase();
    const attributes = match[2]!;
    if (!CONTAINER_MARKS.some((mark) => mark.tags.includes(tag) && mark.attribute.test(attributes))) continue;
    found.push({ index: match.index, tag, length: match[0].length });
    if (found.length >= MAX_CANDIDATES) break;
  }
  return found;
}

/** Elements a reader never sees the content of. */
const HIDDEN_ELEMENTS = new Set(["style", "script", "head", "title", "template"]);
/** Entities for spaces and joiners, which show nothing. */
const BLANK_ENTITY = /^&(?:nbsp|#160|#xa0|zwnj|zwj|#8203|#x200b);$/i;

/**
 * Where the last thing a reader would see ends: walking back over spaces, tags, comments, hidden
 * elements and blank entities. Each step moves left past what it looked at, so this is linear in
 * the message however it is built.
 */
function visibleEnd(html: string): number {
  let i = html.length;
  while (i > 0) {
    const c = html[i - 1]!;
    if (/[\s\u00a0\u200b]/.test(c)) {
      i--;
      continue;
    }
    if (c === ">") {
      if (html.endsWith("-->", i)) {
        const open = html.lastIndexOf("<!--", i - 3);
        if (open < 0) return i;
        i = open;
        continue;
      }
      const open = html.lastIndexOf("<", i - 1);
      const tag = open < 0 ? "" : html.slice(open, i);
      // "a > b" in text is no tag: a tag is one "<…>" run with a name.
      const name = /^<\/?([a-z][a-z0-9:-]*)\b[^<>]*>$/i.exec(tag)?.[1]?.toLowerCase();
      if (name === undefined) return i;
      if (tag[1] === "/" && HIDDEN_ELEMENTS.has(name)) {
        const start = Math.max(html.lastIndexOf(`<${name}`, open), html.lastIndexOf(`<${name.toUpperCase()}`, open));
        i = start < 0 ? open : start;
      } else i = open;
      continue;
    }
    if (c === ";") {
      const amp = html.lastIndexOf("&", i - 1);
      if (amp >= 0 && i - amp <= 10 && BLANK_ENTITY.test(html.slice(amp, i))) {
        i = amp;
        continue;
      }
    }
    return i;
  }
  return 0;
}

/**
 * Cuts at the first quote container after which nothing visible follows; null when there is none.
 * An earlier container with the customer's words after it (a passage the customer quoted to answer
 * it: in Apple Mail and Thunderbird also a `blockquote type=cite`) is theirs and stays, and so are
 * the containers inside it, which close before it does: they are skipped unread.
 */
export function cutQuotedHtml(html: string): TrimmedHtml | null {
  const lastVisible = visibleEnd(html);
  let best: Container | null = null;
  let insideUntil = -1;
  for (const candidate of containersOf(html)) {
    if (candidate.index < insideUntil) continue;
    // Hotmail's rule has no container: everything below it is the quoted message.
    const end =
      candidate.tag === "hr" ? html.length : closingOf(html, candidate.tag, candidate.index + candidate.length);
    if (end >= lastVisible) {
      best = candidate;
      break;
    }
    insideUntil = end;
  }
  if (best === null) return null;
  let cut = best.index;
  let text = textOf(html.slice(0, cut));
  // The attribution ("On …, Bob wrote:") sits just above the container, in the visible part.
  const lines = text.split("\n");
  for (let start = Math.max(0, lines.length - 3); start < lines.length; start++) {
    if (attributionAt(lines, start).span !== lines.length - start) continue;
    const words = lines[start]!.trim().slice(0, 12);
    const at = findText(html, words, cut);
    if (at > 0) {
      cut = at;
      text = textOf(html.slice(0, cut));
    }
    break;
  }
  if (!text.trim()) return null;
  return { html: html.slice(0, cut), text };
}

/** Where the element opened before `from` closes (nesting of the same tag counted); the end when unclosed. */
function closingOf(html: string, tag: string, from: number): number {
  const pattern = new RegExp(`<(/?)${tag}\\b[^<>]*>`, "gi");
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

/** Quote levels written out per line: deeper ones read the same, and hostile nesting stays linear. */
const MAX_MARKED_DEPTH = 10;

/**
 * The HTML as text with blockquotes marked `>` per level, so the plain-text reading sees which
 * lines are quoted (a plain rendering would make a quote above a bottom-posted answer look like
 * the customer's own words).
 */
export function htmlToQuotedText(html: string): string {
  // Which opening tags are indents, so that their closing tags are told apart too.
  const indents: boolean[] = [];
  const marked = html.replace(/<(\/?)blockquote\b([^<>]*)>/gi, (_, closing: string, attributes: string) => {
    const indent = closing ? indents.pop() : isIndent(attributes);
    if (!closing) indents.push(indent === true);
    if (indent) return "\n";
    return closing ? "\n[[desk-quote-close]]\n" : "\n[[desk-quote-open]]\n";
  });
  let depth = 0;
  const out: string[] = [];
  for (const line of textOf(marked).split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "[[desk-quote-open]]") depth++;
    else if (trimmed === "[[desk-quote-close]]") depth = Math.max(0, depth - 1);
    else out.push(depth > 0 ? `${">".repeat(Math.min(depth, MAX_MARKED_DEPTH))} ${line}` : line);
  }
  return out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Gmail's "Indent more" and Outlook's increase-indent wrap the customer's own paragraph in a
 * blockquote with a margin and no border ("margin:0 0 0 40px;border:none"); a client's quote has a
 * border, a cite type or a class of its own.
 */
function isIndent(attributes: string): boolean {
  if (/\btype\s*=\s*["']?cite|\bclass\s*=/i.test(attributes)) return false;
  const style = /\bstyle\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(attributes);
  const css = (style?.[1] ?? style?.[2] ?? "").toLowerCase();
  return /border\s*:\s*none/.test(css) && /margin/.test(css) && !/border-left\s*:\s*[^;]*solid/.test(css);
}

/** The HTML as text, as htmlToText reads it. */
const textOf = (html: string): string => quickText(html) ?? htmlToText(html);

/** Elements whose content is no text, dropped whole when closed (as htmlToText does). */
const HIDDEN_TAG = /<(\/?)(style|script|head|title|template)\b[^<>]*>/gi;
/** What only a real parser reads right: raw-text elements, a stray "<", an entity beyond the simple ones. */
const NEEDS_PARSER =
  /<\s*\/?\s*(?:style|script|head|title|template|svg|math|noscript|textarea|xmp|plaintext|iframe|noembed|noframes)\b|<!\[CDATA\[|<!--|<(?![a-z/!])|&(?!(?:#x[0-9a-f]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos|nbsp);)/i;
const TAG = /<\/?[a-z](?:"[^"<]*"|'[^'<]*'|[^'"<>])*>|<![^<>]*>/gi;
const ENTITY = /&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi;
const SIMPLE_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/**
 * htmlToText's result for the markup mail clients write, without an HTML parser: quote detection
 * reads every unmarked HTML reply whole, and the parser costs about a millisecond per 20 KB.
 * Anything it is not sure to read the same way (see NEEDS_PARSER) returns null: the caller then
 * asks htmlToText.
 */
function quickText(html: string): string | null {
  const visible = withoutHidden(html);
  if (visible === null) return null;
  const withBreaks = visible
    .replace(/<\s*br\s*\/?>/gi, "\n")
    .replace(/<\/\s*(p|div|li|tr|h[1-6]|blockquote|pre|table)\s*>/gi, "\n")
    .replace(/<\s*li[^<>]*>/gi, "- ");
  if (NEEDS_PARSER.test(withBreaks)) return null;
  const text = withBreaks.replace(TAG, "");
  if (text.includes("<")) return null;
  return text
    .replace(ENTITY, (whole, entity: string) => {
      if (entity[0] !== "#") return SIMPLE_ENTITIES[entity.toLowerCase()] ?? whole;
      const code = entity[1]?.toLowerCase() === "x" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    })
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The HTML without its comments and closed hidden elements (style, script, head, title,
 * template), in one pass with indexOf; null when one is left open (htmlToText keeps the text of
 * an unclosed one, which only its parser reads right).
 */
function withoutHidden(html: string): string | null {
  const parts: string[] = [];
  let from = 0;
  // The next comment and hidden element are looked up again only once passed: one pass in all.
  let comment = -2;
  let hidden: RegExpExecArray | null | undefined;
  for (;;) {
    if (comment !== -1 && comment < from) comment = html.indexOf("<!--", from);
    if (hidden === undefined || (hidden !== null && hidden.index < from)) {
      HIDDEN_TAG.lastIndex = from;
      hidden = HIDDEN_TAG.exec(html);
      while (hidden?.[1]) hidden = HIDDEN_TAG.exec(html);
    }
    const at = Math.min(comment < 0 ? html.length : comment, hidden ? hidden.index : html.length);
    if (at === html.length) break;
    parts.push(html.slice(from, at));
    if (at === comment) {
      // "<!-->" and "<!--->" end where they start for a parser; they are left to it.
      const close = html.indexOf("-->", comment + 4);
      if (close < 0 || html.startsWith("<!-->", comment) || html.startsWith("<!--->", comment)) return null;
      from = close + 3;
      continue;
    }
    const name = hidden![2]!.toLowerCase();
    const closing = new RegExp(`<\\/${name}\\s*>`, "gi");
    closing.lastIndex = at + hidden![0].length;
    const close = closing.exec(html);
    if (!close) return null;
    from = close.index + close[0].length;
  }
  parts.push(html.slice(from));
  return parts.join("");
}
