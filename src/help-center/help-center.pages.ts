import type { Deps } from "../deps";
import type { Page } from "../http/pages";
import { deskRateLimiter, type RateLimiter, takeRateLimit } from "../http/rate-limit";
import { requestMeta } from "../http/request-meta";
import { securityHeaders, servedOverHttps } from "../http/security-headers";
import { t } from "../i18n/i18n";
import { acceptedLanguages, exactLocale, negotiateLocale } from "../i18n/locales";
import { publishedArticleLanguages } from "../kb/kb.public";
import { articlePage, collectionPage, homePage, notFoundPage, searchPage, sitemap } from "./help-center.render";
import {
  articlePageOf,
  articleUrl,
  collectionPageOf,
  collectionUrl,
  type HelpCenter,
  helpCenterAt,
  homeOf,
  searchOf,
} from "./help-center.service";
import { brandHex, stylesheetOf } from "./help-center.theme";
import { type ContactChannelsOf, type ContactForm, contactLinkOf } from "./help-center.contact";

/**
 * The public help center's HTML (DECISIONS.md "Customer-facing pages"): `/help/{workspace_slug}`,
 * `…/collections/{slug}`, `…/articles/{slug}`, `…/search?q=`, `…/sitemap.xml`, and its stylesheet
 * `…/style.css?v=` (the theme of the workspace; `/help/-/style.css` for pages of no help center:
 * no workspace slug starts with a dash). No script of their own (the chat widget only where "Contact us"
 * opens it); styles only from that file.
 */
export const helpCenterCsp = (baseUrl: string) => {
  const origin = new URL(baseUrl).origin;
  return [
    "default-src 'none'",
    "style-src 'self'",
    // The workspace's chat widget, where "Contact us" opens it: its script (/widget.js redirects to
    // /widget/<version>.js) and its calls and socket to this origin. Pages work without it. The
    // contact form's proof-of-work solver.
    `script-src ${origin}/widget.js ${origin}/widget/ ${origin}/portal/-/contact.js`,
    "connect-src 'self'",
    // Article bodies may show images from anywhere (the sanitizer keeps http(s) and inline images).
    "img-src 'self' data: https: http:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
};

const HTML = "text/html; charset=utf-8";
/** Pages revalidate on every visit (cheap: 304 on a matching ETag), so an unpublished article is gone at once. */
const PAGE_CACHE = "public, no-cache";
const CSS_CACHE = "public, max-age=31536000, immutable";

/** Searches a minute per client address (the other pages are cheap reads; a search ranks matches). */
export const SEARCH_PAGE_LIMIT = { limit: 60, windowMs: 60_000 } as const;

type Answer = { status: number; body: string; type: string; lastModified?: string | null; vary?: string };

export function helpCenterPages(deps: Deps, channelsOf?: ContactChannelsOf, contactForm?: ContactForm): Page[] {
  // The policy names this server's own origin, which a desk listening on port 0 knows only once it listens.
  let headers = { baseUrl: "", values: {} as Readonly<Record<string, string>> };
  const headersNow = () => {
    const baseUrl = deps.config.baseUrl;
    if (headers.baseUrl !== baseUrl)
      headers = { baseUrl, values: securityHeaders(helpCenterCsp(baseUrl), servedOverHttps(baseUrl)) };
    return headers.values;
  };
  const searches = deskRateLimiter(deps, { name: "help-center.search", ...SEARCH_PAGE_LIMIT });
  const cssUrl = (center: HelpCenter | null) =>
    center
      ? `${center.root}/style.css?v=${stylesheetOf(center.brandColor).version}`
      : `${deps.config.baseUrl}/help/-/style.css?v=${stylesheetOf(null).version}`;

  const site: Site = { deps, channelsOf, searches, cssUrl };

  const helpCenterAtPath = async (slug: string) => {
    try {
      return await helpCenterAt(deps.db, deps.config.baseUrl, decodeURIComponent(slug));
    } catch {
      return null;
    }
  };

  return [
    {
      path: "/help/",
      methods: ["GET", "HEAD", "POST"],
      get securityHeaders() {
        return headersNow();
      },
      async handle(request, path) {
        // `/help/{slug}/contact`: the contact form (the one page that takes a POST).
        const [slug, section, ...rest] = path.slice("/help/".length).split("/");
        const center = section === "contact" && rest.length === 0 && slug ? await helpCenterAtPath(slug) : null;
        if (center && contactForm) return contactForm(request, center);
        if (request.method === "POST") return new Response(null, { status: 405, headers: { allow: "GET, HEAD" } });
        return respond(request, await route(site, request, path));
      },
    },
  ];
}

/** What the pages of every help center share: the desk, its contact channels, the search budget, the stylesheet's address. */
type Site = {
  deps: Deps;
  channelsOf: ContactChannelsOf | undefined;
  searches: RateLimiter;
  cssUrl: (center: HelpCenter | null) => string;
};

function respond(request: Request, a: Answer): Response {
  const response = answer(request, a);
  if (a.type.startsWith("text/css") && a.status === 200) response.headers.set("cache-control", CSS_CACHE);
  return response;
}

function answer(request: Request, a: Answer): Response {
  const etag = `W/"${Bun.hash(a.body).toString(36)}"`;
  const h: Record<string, string> = { "content-type": a.type };
  if (a.vary) h.vary = a.vary;
  if (a.status !== 200) {
    h["cache-control"] = "no-store";
    return new Response(a.body, { status: a.status, headers: h });
  }
  h["cache-control"] = PAGE_CACHE;
  h.etag = etag;
  if (a.lastModified) h["last-modified"] = new Date(a.lastModified).toUTCString();
  if (notModified(request, etag, a.lastModified ?? null)) return new Response(null, { status: 304, headers: h });
  return new Response(a.body, { status: 200, headers: h });
}

function notFound(site: Site, center: HelpCenter | null, path: string): Answer {
  return {
    status: 404,
    type: HTML,
    body: notFoundPage(center, site.cssUrl(center), `${site.deps.config.baseUrl}${path}`),
  };
}

/** Only the search (which spends a budget) answers later; every other page stays synchronous. */
async function route(site: Site, request: Request, path: string): Promise<Answer> {
  const { deps, channelsOf, searches } = site;
  const baseUrl = deps.config.baseUrl;
  let parts: string[];
  try {
    parts = path.slice("/help/".length).split("/").map(decodeURIComponent);
  } catch {
    return notFound(site, null, "/help/");
  }
  if (parts.at(-1) === "") parts.pop();
  const [slug, ...afterSlug] = parts;
  // `?brand=` themes it (the preview of a workspace whose help center is still off).
  if (slug === "-" && afterSlug[0] === "style.css" && afterSlug.length === 1)
    return {
      status: 200,
      type: "text/css; charset=utf-8",
      body: stylesheetOf(brandHex(new URL(request.url).searchParams.get("brand"))).css,
    };
  const found = slug ? await helpCenterAt(deps.db, baseUrl, slug) : null;
  if (!found) return notFound(site, null, path);
  // `/help/{slug}/{locale}/…` names the language; without it Accept-Language picks among the
  // help center's languages, else the workspace's (DECISIONS.md "Languages").
  const named = afterSlug[0] === undefined ? null : exactLocale(afterSlug[0]);
  const [section, item, ...extra] = named ? afterSlug.slice(1) : afterSlug;
  const locale =
    named ?? negotiateLocale(acceptedLanguages(request.headers.get("accept-language")), found.locales, found.locale);
  const center: HelpCenter = {
    ...found,
    locale,
    // One language: the links stay language-free (one canonical URL per page); the tagged paths still answer.
    url: found.locales.length > 1 ? `${found.root}/${locale}` : found.root,
    title: found.ownTitle ? found.title : t(locale, "help.default_title", { name: found.name }),
    contact: channelsOf ? contactLinkOf(found, await channelsOf(deps.db, found.workspaceId, baseUrl)) : null,
  };
  if (extra.length > 0 || (named && !found.locales.includes(named))) return notFound(site, center, path);
  const vary = named ? undefined : "Accept-Language";
  const css = site.cssUrl(center);
  if (section === undefined)
    return { status: 200, type: HTML, body: homePage(center, css, await homeOf(deps.db, center)), vary };
  if (section === "style.css" && item === undefined)
    return { status: 200, type: "text/css; charset=utf-8", body: stylesheetOf(center.brandColor).css };
  if (section === "search" && item === undefined) {
    const meta = requestMeta(request);
    const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 500);
    const page = async (): Promise<Answer> => ({
      status: 200,
      type: HTML,
      body: searchPage(center, css, q, q ? await searchOf(deps.db, center, q) : []),
      vary,
    });
    return meta.ip === null ? await page() : takeRateLimit(searches, meta.ip, meta).then(page);
  }
  if (section === "sitemap.xml" && item === undefined) {
    const home = await homeOf(deps.db, center);
    const articles = await publishedArticleLanguages(deps.db, center.workspaceId);
    // An article is listed in the languages it exists in; one in none of the help center's is under its first.
    const languagesOf = (a: (typeof articles)[number]) => {
      const listed = found.locales.filter((l) => a.languages.includes(l));
      return listed.length > 0 ? listed : found.locales.slice(0, 1);
    };
    const entries = found.locales.flatMap((l) => {
      const inLocale = { ...center, url: found.locales.length > 1 ? `${found.root}/${l}` : found.root };
      return [
        { url: inLocale.url, lastmod: null },
        ...home.collections.map((c) => ({ url: collectionUrl(inLocale, c.slug), lastmod: c.updatedAt })),
        ...articles
          .filter((a) => languagesOf(a).includes(l))
          .map((a) => ({ url: articleUrl(inLocale, a.slug), lastmod: a.updatedAt })),
      ];
    });
    return { status: 200, type: "application/xml; charset=utf-8", body: sitemap(entries) };
  }
  if (section === "collections" && item) {
    const page = await collectionPageOf(deps.db, center, item);
    if (!page) return notFound(site, center, path);
    return { status: 200, type: HTML, body: collectionPage(center, css, page), vary };
  }
  if (section === "articles" && item) {
    const page = await articlePageOf(deps.db, center, item, request.method === "GET");
    if (!page) return notFound(site, center, path);
    // The page shows the article, its collection's name and the workspace's look: the newest of the three.
    const lastModified = [page.article.updatedAt, page.collection?.updatedAt ?? "", center.updatedAt].sort().at(-1);
    return { status: 200, type: HTML, body: articlePage(center, css, page), lastModified, vary };
  }
  return notFound(site, center, path);
}

/** If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2); a weak comparison fits GET. */
function notModified(request: Request, etag: string, lastModified: string | null): boolean {
  const match = request.headers.get("if-none-match");
  if (match !== null)
    return match
      .split(",")
      .map((t) => t.trim())
      .some((t) => t === "*" || t === etag || t === etag.slice(2) || `W/${t}` === etag);
  const since = request.headers.get("if-modified-since");
  if (since === null || !lastModified) return false;
  const sinceMs = Date.parse(since);
  // HTTP dates have whole seconds: compare at that precision.
  return Number.isFinite(sinceMs) && Math.floor(Date.parse(lastModified) / 1000) * 1000 <= sinceMs;
}
