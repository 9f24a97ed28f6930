/**
 * The help center's colours from the workspace's `brand_color`, chosen so text keeps WCAG AA
 * contrast whatever the brand is: the header shows the brand with white or dark text
 * (whichever reads better), and links take the brand darkened until it reads at 4.5:1 on white.
 */

export const DEFAULT_BRAND = "#1f6feb";
const INK = "#111827";
const WHITE = "#ffffff";

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex);
  if (!m) return null;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join("") : m[1]!;
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: string, b: string): number {
  const la = luminance(parseHex(a)!);
  const lb = luminance(parseHex(b)!);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export type Theme = { brand: string; onBrand: string; link: string };

export function themeOf(brandColor: unknown): Theme {
  const rgb = (typeof brandColor === "string" && parseHex(brandColor)) || parseHex(DEFAULT_BRAND)!;
  const brand = toHex(rgb);
  // White or the page's ink, whichever reads better; pure black when neither reaches 4.5:1 (a
  // mid-tone brand: black always does, as the larger of its and white's contrast is at least 4.58).
  const better = contrast(brand, WHITE) >= contrast(brand, INK) ? WHITE : INK;
  const onBrand = contrast(brand, better) >= 4.5 ? better : "#000000";
  let link: Rgb = rgb;
  for (let i = 0; i < 40 && contrast(toHex(link), WHITE) < 4.6; i++) link = link.map((c) => c * 0.9) as Rgb;
  return { brand, onBrand, link: toHex(link) };
}

/** `value` when it is a `#rrggbb` colour, else null (the default theme). */
export const brandHex = (value: unknown): string | null =>
  typeof value === "string" && /^#[0-9a-f]{6}$/i.test(value) ? value : null;

/** The stylesheet of each brand colour (themeOf's hex, or null for the default) and its version, built once. */
const stylesheets = new Map<string, { css: string; version: string }>();
export function stylesheetOf(brand: string | null): { css: string; version: string } {
  const key = brand ?? "";
  let entry = stylesheets.get(key);
  if (!entry) {
    const css = helpCenterCss(themeOf(brand));
    entry = { css, version: Bun.hash(css).toString(36) };
    if (stylesheets.size > 1000) stylesheets.clear();
    stylesheets.set(key, entry);
  }
  return entry;
}

/** The page styles: one file per workspace (the theme's custom properties, then the fixed rules). */
export function helpCenterCss(theme: Theme): string {
  return `:root{--brand:${theme.brand};--on-brand:${theme.onBrand};--link:${theme.link}}\n${BASE_CSS}`;
}

const BASE_CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1f2328;background:#fff}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:#fff;color:#111827;padding:8px 12px;z-index:10}
.skip:focus{left:8px;top:8px}
header.site{background:var(--brand);color:var(--on-brand)}
header.site .bar{max-width:960px;margin:0 auto;padding:16px 20px;display:flex;align-items:center;gap:12px;flex-wrap:wrap}
header.site a.home{color:var(--on-brand);text-decoration:none;font-weight:700;font-size:1.25rem;display:flex;align-items:center;gap:10px;min-height:44px}
header.site a.home:hover{text-decoration:underline}
header.site img.logo{height:36px;width:auto;max-width:180px}
header.site form{margin-left:auto;display:flex;gap:8px;flex:1 1 260px;max-width:420px}
header.site input[type=search]{flex:1;min-width:0;font:inherit;padding:8px 12px;border:1px solid #6e7781;border-radius:6px;color:#1f2328;background:#fff;min-height:44px}
header.site button{font:inherit;padding:8px 16px;border-radius:6px;border:2px solid var(--on-brand);background:transparent;color:var(--on-brand);cursor:pointer;min-height:44px}
header.site a.contact{color:var(--on-brand);font-weight:600;display:inline-flex;align-items:center;min-height:44px;padding:0 4px}
header.site .languages ul{display:flex;gap:8px;margin:0;padding:0;list-style:none}
header.site .languages a{color:var(--on-brand);display:inline-flex;align-items:center;min-height:44px;padding:0 4px}
header.site .languages a[aria-current]{font-weight:700;text-decoration:underline}
main{max-width:960px;margin:0 auto;padding:24px 20px 48px}
h1{font-size:2rem;line-height:1.25;margin:8px 0 16px}
h2{font-size:1.4rem;margin:32px 0 12px}
nav.crumbs ol{list-style:none;padding:0;margin:0 0 8px;display:flex;flex-wrap:wrap;gap:6px;font-size:.95rem}
nav.crumbs li+li::before{content:"/";margin-right:6px;color:#57606a}
ul.collections{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:16px}
ul.collections li{border:1px solid #d0d7de;border-radius:8px;padding:16px}
ul.collections h3{margin:0 0 4px;font-size:1.15rem}
ul.collections p{margin:0;color:#57606a}
ul.articles{list-style:none;padding:0;margin:0}
ul.articles li{padding:12px 0;border-bottom:1px solid #d0d7de}
ul.articles a{font-weight:600}
ul.articles p{margin:4px 0 0;color:#57606a}
.meta{color:#57606a;font-size:.95rem}
article.body{overflow-wrap:anywhere}
article.body img{max-width:100%;height:auto}
article.body pre{overflow:auto;background:#f6f8fa;padding:12px;border-radius:6px}
article.body table{border-collapse:collapse}
article.body td,article.body th{border:1px solid #d0d7de;padding:6px 10px}
article.body blockquote{margin:0;padding-left:16px;border-left:4px solid #d0d7de;color:#424a53}
footer.site{max-width:960px;margin:0 auto;padding:16px 20px 32px;color:#57606a;font-size:.9rem;border-top:1px solid #d0d7de}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
