import type SanitizeHtml from "sanitize-html";

// Loaded on first use (synchronously: callers sanitise inside transactions); an idle instance never holds it.
let sanitizer: typeof SanitizeHtml | undefined;
const sanitizeHtml = (html: string, options: SanitizeHtml.IOptions): string => (sanitizer ??= require("sanitize-html") as typeof SanitizeHtml)(html, options);

/**
 * The one HTML allowlist for stored rich text (messages, notes, signatures, saved replies,
 * articles). Scripts, event handlers, forms, iframes, `javascript:` and other unsafe URLs, and
 * remote styles are removed; links open with `rel="noopener noreferrer"` in a new tab.
 * `cid:` images (inline email parts) are kept so they can be rewritten to attachment URLs.
 */
const OPTIONS: SanitizeHtml.IOptions = {
  allowedTags: [
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "col", "colgroup", "dd", "del", "div", "dl", "dt", "em",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s",
    "small", "span", "strike", "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul",
    "font", "center",
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
    "*": ["dir", "lang"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https", "cid", "data"] },
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: ["style", "script", "textarea", "option", "noscript", "title", "head", "template", "iframe", "object", "embed", "svg", "math"],
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: "noopener noreferrer", target: "_blank" } }),
  },
  exclusiveFilter: (frame) => frame.tag === "img" && typeof frame.attribs.src === "string" && /^data:/i.test(frame.attribs.src) && !/^data:image\/(png|jpe?g|gif|webp);base64,/i.test(frame.attribs.src),
};

export function sanitizeHtmlBody(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** Plain text from HTML: block elements become line breaks, entities decoded, whitespace tidied. */
export function htmlToText(html: string): string {
  const withBreaks = html
    .replace(/<\s*br\s*\/?>/gi, "\n")
    .replace(/<\/\s*(p|div|li|tr|h[1-6]|blockquote|pre|table)\s*>/gi, "\n")
    .replace(/<\s*li[^>]*>/gi, "- ");
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {}, nonTextTags: ["style", "script", "head", "title", "template"] });
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
