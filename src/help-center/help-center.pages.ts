import type { Deps } from "../deps";
import type { Page } from "../http/pages";
import { createRateLimiter, enforceRateLimits } from "../http/rate-limit";
import { requestMeta } from "../http/request-meta";
import { securityHeaders, servedOverHttps } from "../http/security-headers";
import { publishedArticleSlugs } from "../kb/kb.public";
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

/**
 * The public help center's HTML (DECISIONS.md "Customer-facing pages"): `/help/{workspace_slug}`,
 * `…/collections/{slug}`, `…/articles/{slug}`, `…/search?q=`, `…/sitemap.xml`, and its stylesheet
 * `…/style.css?v=` (the theme of the workspace; `/help/-/style.css` for pages of no help center:
 * no workspace slug starts with a dash). No script at all; styles only from that file.
 */
export const HELP_CENTER_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  // Article bodies may show images from anywhere (the sanitizer keeps http(s) and inline images).
  "img-src 'self' data: https: http:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const HTML = "text/html; charset=utf-8";
/** Pages revalidate on every visit (cheap: 304 on a matching ETag), so an unpublished article is gone at once. */
const PAGE_CACHE = "public, no-cache";
const CSS_CACHE = "public, max-age=31536000, immutable";

/** Searches a minute per client address (the other pages are cheap reads; a search ranks matches). */
export const SEARCH_PAGE_LIMIT = { limit: 60, windowMs: 60_000 } as const;

type Answer = { status: number; body: string; type: string; lastModified?: string | null };

export function helpCenterPages(deps: Deps): Page[] {
  const headers = securityHeaders(HELP_CENTER_CSP, servedOverHttps(deps.config.baseUrl));
  const searches = createRateLimiter({ ...SEARCH_PAGE_LIMIT, now: () => deps.clock.now().getTime() });
  const cssUrl = (center: HelpCenter | null) =>
    center
      ? `${center.url}/style.css?v=${stylesheetOf(center.brandColor).version}`
      : `${deps.config.baseUrl}/help/-/style.css?v=${stylesheetOf(null).version}`;

  function answer(request: Request, a: Answer): Response {
    const etag = `W/"${Bun.hash(a.body).toString(36)}"`;
    const h: Record<string, string> = { "content-type": a.type };
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

  function notFound(center: HelpCenter | null, path: string): Answer {
    return { status: 404, type: HTML, body: notFoundPage(center, cssUrl(center), `${deps.config.baseUrl}${path}`) };
  }

  function route(request: Request, path: string): Answer {
    const baseUrl = deps.config.baseUrl;
    let parts: string[];
    try {
      parts = path.slice("/help/".length).split("/").map(decodeURIComponent);
    } catch {
      return notFound(null, "/help/");
    }
    if (parts.at(-1) === "") parts.pop();
    const [slug, section, item, ...extra] = parts;
    // `?brand=` themes it (the preview of a workspace whose help center is still off).
    if (slug === "-" && section === "style.css" && item === undefined)
      return {
        status: 200,
        type: "text/css; charset=utf-8",
        body: stylesheetOf(brandHex(new URL(request.url).searchParams.get("brand"))).css,
      };
    const center = slug ? helpCenterAt(deps.db, baseUrl, slug) : null;
    if (!center || extra.length > 0) return notFound(null, path);
    const css = cssUrl(center);
    if (section === undefined) return { status: 200, type: HTML, body: homePage(center, css, homeOf(deps.db, center)) };
    if (section === "style.css" && item === undefined)
      return { status: 200, type: "text/css; charset=utf-8", body: stylesheetOf(center.brandColor).css };
    if (section === "search" && item === undefined) {
      const meta = requestMeta(request);
      if (meta.ip !== null) {
        enforceRateLimits([[searches, meta.ip]], meta);
        searches.hit(meta.ip);
      }
      const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 500);
      return { status: 200, type: HTML, body: searchPage(center, css, q, q ? searchOf(deps.db, center, q) : []) };
    }
    if (section === "sitemap.xml" && item === undefined) {
      const home = homeOf(deps.db, center);
      const entries = [
        ...home.collections.map((c) => ({ url: collectionUrl(center, c.slug), lastmod: c.updatedAt })),
        ...publishedArticleSlugs(deps.db, center.workspaceId).map((a) => ({
          url: articleUrl(center, a.slug),
          lastmod: a.updatedAt,
        })),
      ];
      return { status: 200, type: "application/xml; charset=utf-8", body: sitemap(center, entries) };
    }
    if (section === "collections" && item) {
      const page = collectionPageOf(deps.db, center, item);
      if (!page) return notFound(center, path);
      return { status: 200, type: HTML, body: collectionPage(center, css, page) };
    }
    if (section === "articles" && item) {
      const page = articlePageOf(deps.db, center, item, request.method === "GET");
      if (!page) return notFound(center, path);
      // The page shows the article, its collection's name and the workspace's look: the newest of the three.
      const lastModified = [page.article.updatedAt, page.collection?.updatedAt ?? "", center.updatedAt].sort().at(-1);
      return { status: 200, type: HTML, body: articlePage(center, css, page), lastModified };
    }
    return notFound(center, path);
  }

  return [
    {
      path: "/help/",
      securityHeaders: headers,
      handle(request, path) {
        const a = route(request, path);
        const response = answer(request, a);
        if (a.type.startsWith("text/css") && a.status === 200) response.headers.set("cache-control", CSS_CACHE);
        return response;
      },
    },
  ];
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
