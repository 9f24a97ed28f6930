import type { PublishedArticleSummary } from "../kb/kb.public";
import { escapeHtml as esc } from "../lib/sanitize";
import {
  type ArticlePage,
  articleUrl,
  collectionUrl,
  type collectionPageOf,
  type HelpCenter,
  type homeOf,
} from "./help-center.service";

/**
 * The help center's pages as HTML strings: readable without JavaScript (there is none), one
 * stylesheet file, landmarks (banner, search, main, contentinfo), one h1 per page, a skip link,
 * and what search engines and link previews read (title, description, canonical, Open Graph).
 */

export type Head = {
  title: string;
  description: string;
  canonical: string;
  ogType: "website" | "article";
  noindex?: boolean;
};

const DESCRIPTION_CHARS = 160;

/** A description from text: whitespace folded, cut at a word near 160 characters. */
export function describe(text: string, fallback: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (!flat) return fallback;
  if (flat.length <= DESCRIPTION_CHARS) return flat;
  const cut = flat.slice(0, DESCRIPTION_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > 80 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const dateFormat = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});
const time = (iso: string) => `<time datetime="${esc(iso)}">${esc(dateFormat.format(new Date(iso)))}</time>`;

/** The frame of every page; `center` null for the 404 page of an unknown or closed help center. */
export function layout(center: HelpCenter | null, cssUrl: string, head: Head, main: string, query = ""): string {
  const siteName = center?.title ?? "Help Center";
  const meta = [
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(head.title)}</title>`,
    `<meta name="description" content="${esc(head.description)}">`,
    head.noindex ? `<meta name="robots" content="noindex">` : "",
    `<link rel="canonical" href="${esc(head.canonical)}">`,
    `<meta property="og:type" content="${head.ogType}">`,
    `<meta property="og:title" content="${esc(head.title)}">`,
    `<meta property="og:description" content="${esc(head.description)}">`,
    `<meta property="og:url" content="${esc(head.canonical)}">`,
    `<meta property="og:site_name" content="${esc(siteName)}">`,
    center?.logoUrl ? `<meta property="og:image" content="${esc(center.logoUrl)}">` : "",
    `<meta name="twitter:card" content="summary">`,
    center?.faviconUrl ? `<link rel="icon" href="${esc(center.faviconUrl)}">` : "",
    `<link rel="stylesheet" href="${esc(cssUrl)}">`,
    center ? `<link rel="sitemap" type="application/xml" href="${esc(center.url)}/sitemap.xml">` : "",
  ]
    .filter(Boolean)
    .join("\n");
  const header = center
    ? `<header class="site"><div class="bar"><a class="home" href="${esc(center.url)}">${
        center.logoUrl ? `<img class="logo" src="${esc(center.logoUrl)}" alt="">` : ""
      }<span>${esc(center.title)}</span></a><form role="search" action="${esc(center.url)}/search" method="get"><label class="visually-hidden" for="q">Search articles</label><input type="search" id="q" name="q" value="${esc(query)}" placeholder="Search articles" required maxlength="500"><button type="submit">Search</button></form>${contactLink(center)}${requestsLink(center)}</div></header>`
    : `<header class="site"><div class="bar"><span class="home">Help Center</span></div></header>`;
  const footer = `<footer class="site"><p>${esc(center ? center.name : "Help Center")}</p></footer>`;
  return `<!doctype html>\n<html lang="en">\n<head>\n${meta}\n</head>\n<body>\n<a class="skip" href="#main">Skip to content</a>\n${header}\n<main id="main">\n${main}\n</main>\n${footer}${widgetScript(center)}\n</body>\n</html>\n`;
}

/** "Contact us" on every page of a help center that has a way to reach a person (help-center.contact.ts). */
function contactLink(center: HelpCenter): string {
  if (!center.contact) return "";
  const chat = center.contact.widgetKey ? " data-desk-chat" : "";
  return `<a class="contact" href="${esc(center.contact.href)}"${chat}>Contact us</a>`;
}

/** The customer portal (`/portal/{workspace_slug}`), where a customer follows their requests. */
function requestsLink(center: HelpCenter): string {
  const portal = center.url.replace(/\/help\/([^/]+)$/, "/portal/$1");
  return `<a class="contact" href="${esc(portal)}">Your requests</a>`;
}

/** The workspace's chat widget, on pages whose "Contact us" opens it. */
function widgetScript(center: HelpCenter | null): string {
  const key = center?.contact?.widgetKey;
  if (!key) return "";
  const base = center.url.slice(0, center.url.indexOf("/help/"));
  return `\n<script src="${esc(base)}/widget.js" data-key="${esc(key)}" async></script>`;
}

function articleList(center: HelpCenter, articles: PublishedArticleSummary[], withExcerpt: boolean): string {
  return `<ul class="articles">${articles
    .map(
      (a) =>
        `<li><a href="${esc(articleUrl(center, a.slug))}">${esc(a.title)}</a>${
          withExcerpt && a.excerpt ? `<p>${esc(describe(a.excerpt, ""))}</p>` : ""
        }</li>`,
    )
    .join("")}</ul>`;
}

function crumbs(items: Array<[string, string | null]>): string {
  return `<nav class="crumbs" aria-label="Breadcrumb"><ol>${items
    .map(([label, href]) =>
      href ? `<li><a href="${esc(href)}">${esc(label)}</a></li>` : `<li aria-current="page">${esc(label)}</li>`,
    )
    .join("")}</ol></nav>`;
}

export function homePage(center: HelpCenter, cssUrl: string, home: ReturnType<typeof homeOf>): string {
  const collections = home.collections.length
    ? `<h2>Collections</h2><ul class="collections">${home.collections
        .map(
          (c) =>
            `<li><h3><a href="${esc(collectionUrl(center, c.slug))}">${esc(c.name)}</a></h3>${
              c.description ? `<p>${esc(c.description)}</p>` : ""
            }<p class="meta">${c.articleCount} ${c.articleCount === 1 ? "article" : "articles"}</p></li>`,
        )
        .join("")}</ul>`
    : `<p>No articles are published yet.</p>`;
  const featured = home.featured.length ? `<h2>Popular articles</h2>${articleList(center, home.featured, false)}` : "";
  return layout(
    center,
    cssUrl,
    {
      title: center.title,
      description: `Answers and guides from ${center.name}: search the articles or browse the collections.`,
      canonical: center.url,
      ogType: "website",
    },
    `<h1>${esc(center.title)}</h1>\n${collections}\n${featured}`,
  );
}

export function collectionPage(
  center: HelpCenter,
  cssUrl: string,
  page: NonNullable<ReturnType<typeof collectionPageOf>>,
): string {
  const { collection, articles } = page;
  return layout(
    center,
    cssUrl,
    {
      title: `${collection.name} | ${center.title}`,
      description: describe(collection.description, `Articles about ${collection.name} in ${center.title}.`),
      canonical: collectionUrl(center, collection.slug),
      ogType: "website",
    },
    `${crumbs([
      [center.title, center.url],
      [collection.name, null],
    ])}<h1>${esc(collection.name)}</h1>${collection.description ? `<p>${esc(collection.description)}</p>` : ""}${articleList(center, articles, true)}`,
  );
}

export function articlePage(center: HelpCenter, cssUrl: string, page: ArticlePage): string {
  const { article, collection } = page;
  const trail: Array<[string, string | null]> = [[center.title, center.url]];
  if (collection) trail.push([collection.name, collectionUrl(center, collection.slug)]);
  trail.push([article.title, null]);
  return layout(
    center,
    cssUrl,
    {
      title: `${article.title} | ${center.title}`,
      description: describe(article.bodyText, article.title),
      canonical: articleUrl(center, article.slug),
      ogType: "article",
    },
    `${crumbs(trail)}<article class="body" aria-labelledby="article-title"><h1 id="article-title">${esc(article.title)}</h1><p class="meta">Updated ${time(article.updatedAt)}</p>\n${article.bodyHtml}\n</article>`,
  );
}

export function searchPage(center: HelpCenter, cssUrl: string, q: string, hits: PublishedArticleSummary[]): string {
  const heading = q ? `Search results for “${esc(q)}”` : "Search";
  const results = !q
    ? `<p>Type a few words in the search box above.</p>`
    : hits.length
      ? `<p>${hits.length} ${hits.length === 1 ? "article matches" : "articles match"}.</p>${articleList(center, hits, true)}`
      : `<p>No articles match. Try other words, or <a href="${esc(center.url)}">browse the collections</a>.</p>`;
  return layout(
    center,
    cssUrl,
    {
      title: q ? `Search: ${q} | ${center.title}` : `Search | ${center.title}`,
      description: `Search the articles of ${center.title}.`,
      canonical: `${center.url}/search${q ? `?q=${encodeURIComponent(q)}` : ""}`,
      ogType: "website",
      noindex: true,
    },
    `${crumbs([
      [center.title, center.url],
      ["Search", null],
    ])}<h1>${heading}</h1>${results}`,
    q,
  );
}

/** The plain 404 page: the same for an unknown page, a draft, and a help center that is off. */
export function notFoundPage(center: HelpCenter | null, cssUrl: string, canonical: string): string {
  return layout(
    center,
    cssUrl,
    { title: "Page not found", description: "This page does not exist.", canonical, ogType: "website", noindex: true },
    `<h1>Page not found</h1><p>This page does not exist or is no longer published.</p>${
      center ? `<p><a href="${esc(center.url)}">Go to ${esc(center.title)}</a></p>` : ""
    }`,
  );
}

export function sitemap(center: HelpCenter, entries: Array<{ url: string; lastmod: string | null }>): string {
  const urls = entries
    .map((e) => `<url><loc>${esc(e.url)}</loc>${e.lastmod ? `<lastmod>${esc(e.lastmod)}</lastmod>` : ""}</url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>${esc(center.url)}</loc></url>\n${urls}\n</urlset>\n`;
}
