/**
 * Trims quoted history from a reply so agents see what is new; the full original stays stored.
 * Recognises the quoting of common clients: Gmail (`gmail_quote`), Apple Mail and Thunderbird
 * (`blockquote type=cite`), Outlook (`divRplyFwdMsg`, `appendonsend`, "-----Original Message-----"),
 * Yahoo (`yahoo_quoted`), and plain-text `>` quotes led by an "On … wrote:" line.
 */

const HTML_CUT_MARKERS: RegExp[] = [
  /<div[^>]+class="[^"]*\bgmail_quote\b[^"]*"[^>]*>/i,
  /<blockquote[^>]+type=["']?cite["']?[^>]*>/i,
  /<div[^>]+id="?(divRplyFwdMsg|appendonsend)"?[^>]*>/i,
  /<div[^>]+class="[^"]*\byahoo_quoted\b[^"]*"[^>]*>/i,
  /<hr[^>]*id="?stopSpelling"?[^>]*>/i,
  /-{3,}\s*Original Message\s*-{3,}/i,
];

const WROTE_LINE = /^(On\s.{1,200}\swrote:|Am\s.{1,200}\sschrieb\s?.{0,40}:|Le\s.{1,200}\sa\sécrit\s?:|El\s.{1,200}\sescribió:)\s*$/im;

export type TrimmedBody = { html: string | null; text: string; hasQuoted: boolean };

function cutHtml(html: string): string | null {
  let cut = -1;
  for (const marker of HTML_CUT_MARKERS) {
    const match = marker.exec(html);
    if (match && (cut < 0 || match.index < cut)) cut = match.index;
  }
  if (cut < 0) {
    // "On … wrote:" in its own element, followed by a blockquote.
    const wrote = /(<(div|p)[^>]*>\s*)?On\s[^<]{1,200}\swrote:\s*(<\/(div|p)>)?\s*(<br\s*\/?>\s*)*<blockquote/i.exec(html);
    if (wrote) cut = wrote.index;
  }
  if (cut <= 0) return null;
  const visible = html.slice(0, cut);
  return /\S/.test(visible.replace(/<[^>]*>|&nbsp;/g, "")) ? visible : null;
}

function cutText(text: string): string | null {
  const lines = text.split(/\r?\n/);
  let cut = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (WROTE_LINE.test(line) || /^-{3,}\s*Original Message\s*-{3,}\s*$/i.test(line.trim()) || /^_{10,}$/.test(line.trim())) {
      cut = i;
      break;
    }
    if (/^>/.test(line)) {
      // A block of quoted lines that runs to the end (allowing blank lines) is history.
      if (lines.slice(i).every((l) => l.startsWith(">") || l.trim() === "")) {
        cut = i;
        break;
      }
    }
  }
  if (cut <= 0) return null;
  const visible = lines.slice(0, cut).join("\n").trimEnd();
  return visible.trim() ? visible : null;
}

export function trimQuoted(html: string | null, text: string): TrimmedBody {
  const trimmedText = cutText(text);
  const trimmedHtml = html ? cutHtml(html) : null;
  if (html) {
    if (trimmedHtml === null) return { html, text, hasQuoted: false };
    return { html: trimmedHtml, text: trimmedText ?? text, hasQuoted: true };
  }
  if (trimmedText === null) return { html: null, text, hasQuoted: false };
  return { html: null, text: trimmedText, hasQuoted: true };
}
