import type * as HtmlParser2 from "htmlparser2";
import type SanitizeHtml from "sanitize-html";

// Loaded on first use (synchronously: callers sanitise inside transactions); an idle instance never holds them.
let sanitizer: typeof SanitizeHtml | undefined;
let htmlparser: typeof HtmlParser2 | undefined;
const sanitizeHtml = (html: string, options: SanitizeHtml.IOptions): string => {
  sanitizer ??= require("sanitize-html") as typeof SanitizeHtml;
  return sanitizer(html, options);
};

/** Elements whose whole content the stored body leaves out (code, embedded documents, foreign markup). */
const DROPPED_WITH_CONTENT = [
  "style",
  "script",
  "textarea",
  "option",
  "noscript",
  "title",
  "head",
  "template",
  "iframe",
  "object",
  "embed",
  "svg",
  "math",
];
const TEXT_DROPPED_WITH_CONTENT = ["style", "script", "head", "title", "template"];
// Passes of reopenUnclosed: each removes at least one start tag, so hostile input cannot loop long.
const MAX_REOPEN_PASSES = 32;

/**
 * Removes the start tag of every element of `dropped` that is never closed by its own end tag.
 * Such an element runs to the end of the document (or of its parent), so dropping its content
 * would silently drop all the customer's text after a stray `<svg>` or `<noscript>`. Without its
 * start tag the rest is ordinary markup that the allowlist then cleans like any other.
 * Closed elements keep being dropped whole. Returns undefined when the input keeps producing
 * unclosed elements past the pass limit; the caller then keeps every element's text.
 */
function reopenUnclosed(html: string, dropped: readonly string[]): string | undefined {
  const quick = new RegExp(`<\\s*(${dropped.join("|")})\\b`, "i");
  if (!quick.test(html)) return html;
  const names = new Set(dropped);
  htmlparser ??= require("htmlparser2") as typeof HtmlParser2;
  const { Parser } = htmlparser;
  let current = html;
  for (let pass = 0; pass < MAX_REOPEN_PASSES; pass++) {
    const open: Array<{ start: number; end: number } | null> = [];
    const cuts: Array<{ start: number; end: number }> = [];
    const parser: HtmlParser2.Parser = new Parser(
      {
        onopentag: (name) =>
          void open.push(names.has(name) ? { start: parser.startIndex, end: parser.endIndex } : null),
        onclosetag: (_name, isImplied) => {
          const element = open.pop();
          if (element && isImplied) cuts.push(element);
        },
      },
      // The options sanitize-html parses with, so both passes see the same tree.
      { decodeEntities: true },
    );
    parser.end(current);
    if (cuts.length === 0) return current;
    cuts.sort((a, b) => b.start - a.start);
    for (const cut of cuts) current = current.slice(0, cut.start) + current.slice(cut.end + 1);
  }
  return undefined;
}

/**
 * The one HTML allowlist for stored rich text (messages, notes, signatures, saved replies,
 * articles). Scripts, event handlers, forms, iframes, `javascript:` and other unsafe URLs, and
 * remote styles are removed; links open with `rel="noopener noreferrer"` in a new tab.
 * `cid:` images (inline email parts) are kept so they can be rewritten to attachment URLs.
 */
const OPTIONS: SanitizeHtml.IOptions = {
  allowedTags: [
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "caption",
    "code",
    "col",
    "colgroup",
    "dd",
    "del",
    "div",
    "dl",
    "dt",
    "em",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "ins",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "pre",
    "q",
    "s",
    "small",
    "span",
    "strike",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "u",
    "ul",
    "font",
    "center",
  ],
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    td: ["colspan", "rowspan", "align", "valign"],
    th: ["colspan", "rowspan", "align", "valign", "scope"],
    table: ["border", "cellpadding", "cellspacing", "width"],
    col: ["span", "width"],
    ol: ["start", "type"],
    font: ["color", "size"],
    // An @mention of a member in a note (src/notifications/notifications.mentions.ts).
    span: ["data-mention"],
    "*": ["dir", "lang"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https", "cid", "data"] },
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: DROPPED_WITH_CONTENT,
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: "noopener noreferrer", target: "_blank" } }),
    span: (tagName, attribs) => {
      const { "data-mention": mention, ...rest } = attribs;
      return {
        tagName,
        attribs: mention && /^[0-9A-Za-z-]{1,64}$/.test(mention) ? { ...rest, "data-mention": mention } : rest,
      };
    },
  },
  exclusiveFilter: (frame) =>
    frame.tag === "img" &&
    typeof frame.attribs.src === "string" &&
    /^data:/i.test(frame.attribs.src) &&
    !/^data:image\/(png|jpe?g|gif|webp);base64,/i.test(frame.attribs.src),
};

export function sanitizeHtmlBody(html: string): string {
  const reopened = reopenUnclosed(html, DROPPED_WITH_CONTENT);
  // Past the pass limit every element's text is kept (escaped): never lose text, never let markup through.
  return reopened === undefined ? sanitizeHtml(html, { ...OPTIONS, nonTextTags: [] }) : sanitizeHtml(reopened, OPTIONS);
}

/** Plain text from HTML: block elements become line breaks, entities decoded, whitespace tidied. */
export function htmlToText(html: string): string {
  const withBreaks = html
    .replace(/<\s*br\s*\/?>/gi, "\n")
    .replace(/<\/\s*(p|div|li|tr|h[1-6]|blockquote|pre|table)\s*>/gi, "\n")
    .replace(/<\s*li[^>]*>/gi, "- ");
  const reopened = reopenUnclosed(withBreaks, TEXT_DROPPED_WITH_CONTENT);
  const text = sanitizeHtml(reopened ?? withBreaks, {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: reopened === undefined ? [] : TEXT_DROPPED_WITH_CONTENT,
  });
  return decodeEntities(text)
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1]?.toLowerCase() === "x" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return NAMED[entity.toLowerCase()] ?? whole;
  });
}

/** Escapes text for inclusion in HTML (plain-text bodies turned into HTML). */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export const textToHtml = (text: string): string =>
  text
    .split(/\n{2,}/)
    .map((para) => `<p>${escapeHtml(para).replace(/\n/g, "<br>")}</p>`)
    .join("");
