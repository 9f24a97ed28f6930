/** Small DOM helpers of the widget (no framework: the script must stay small). */

type Tag = keyof HTMLElementTagNameMap;

/** An element with attributes and optional text; text is set as text, never parsed as HTML. */
export function el<K extends Tag>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Black or white, whichever reads better on the workspace's brand colour (WCAG relative luminance). */
export function brandText(color: string): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return "#ffffff";
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? "#ffffff" : "#000000";
}

export function formatTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ""
    : date.toLocaleTimeString(locale ?? [], { hour: "2-digit", minute: "2-digit" });
}

/** Text with its http(s) links made clickable; everything else stays text (never parsed as HTML). */
export function linkified(text: string): DocumentFragment {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/g)) {
    const at = match.index ?? 0;
    if (at > last) out.append(text.slice(last, at));
    out.append(el("a", { href: match[0], target: "_blank", rel: "noopener noreferrer nofollow" }, match[0]));
    last = at + match[0].length;
  }
  if (last < text.length) out.append(text.slice(last));
  return out;
}
