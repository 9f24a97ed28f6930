import type { PublishedArticleSummary } from "../kb/kb.public";
import { formatDate, type MessageKey, type MessageValues, t } from "../i18n/i18n";
import { DEFAULT_LOCALE, LOCALE_NAMES, type Locale } from "../i18n/locales";
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
  /** The languages the page's content exists in (an article's own and its translations'): the hreflang alternates. Every language when absent. */
  languages?: readonly Locale[];
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

const time = (locale: Locale, iso: string) => `<time datetime="${esc(iso)}">${esc(formatDate(locale, iso))}</time>`;

/** A message in the page's language, escaped for HTML (values are customer or workspace text). */
const tr = (center: HelpCenter | null, key: MessageKey, values?: MessageValues) =>
  esc(t(center?.locale ?? DEFAULT_LOCALE, key, values));

/** The same page in each of the help center's languages: `canonical` with its language segment swapped. */
function alternatesOf(center: HelpCenter, canonical: string): Array<{ locale: Locale; href: string }> {
  if (!canonical.startsWith(center.url)) return [];
  const rest = canonical.slice(center.url.length);
  return center.locales.map((locale) => ({ locale, href: `${center.root}/${locale}${rest}` }));
}

/** Links to this page in the help center's other languages, each named in its own language. */
function languageSwitcher(center: HelpCenter, alternates: Array<{ locale: Locale; href: string }>): string {
  if (alternates.length < 2) return "";
  return `<nav class="languages" aria-label="${tr(center, "help.language")}"><ul>${alternates
    .map(({ locale, href }) =>
      locale === center.locale
        ? `<li><a href="${esc(href)}" hreflang="${locale}" lang="${locale}" aria-current="true">${esc(LOCALE_NAMES[locale])}</a></li>`
        : `<li><a href="${esc(href)}" hreflang="${locale}" lang="${locale}">${esc(LOCALE_NAMES[locale])}</a></li>`,
    )
    .join("")}</ul></nav>`;
}

/** The frame of every page; `center` null for the 404 page of an unknown or closed help center. */
export function layout(center: HelpCenter | null, cssUrl: string, head: Head, main: string, query = ""): string {
  const siteName = center?.title ?? t(DEFAULT_LOCALE, "help.site_name");
  const alternates = center ? alternatesOf(center, head.canonical) : [];
  // The switcher offers every language (the page's frame is in each); search engines hear only of the content's own.
  const hreflang = head.languages ? alternates.filter((a) => head.languages?.includes(a.locale)) : alternates;
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
    center ? `<link rel="sitemap" type="application/xml" href="${esc(center.root)}/sitemap.xml">` : "",
    ...(hreflang.length > 1
      ? [
          ...hreflang.map((a) => `<link rel="alternate" hreflang="${a.locale}" href="${esc(a.href)}">`),
          `<link rel="alternate" hreflang="x-default" href="${esc(hreflang[0]!.href.replace(`${center!.root}/${hreflang[0]!.locale}`, center!.root))}">`,
        ]
      : []),
  ]
    .filter(Boolean)
    .join("\n");
  const header = center
    ? `<header class="site"><div class="bar"><a class="home" href="${esc(center.url)}">${
        center.logoUrl ? `<img class="logo" src="${esc(center.logoUrl)}" alt="">` : ""
      }<span>${esc(center.title)}</span></a><form role="search" action="${esc(center.url)}/search" method="get"><label class="visually-hidden" for="q">${tr(center, "help.search_label")}</label><input type="search" id="q" name="q" value="${esc(query)}" placeholder="${tr(center, "help.search_label")}" required maxlength="500"><button type="submit">${tr(center, "help.search_button")}</button></form>${contactLink(center)}${requestsLink(center)}${languageSwitcher(center, alternates)}</div></header>`
    : `<header class="site"><div class="bar"><span class="home">${tr(center, "help.site_name")}</span></div></header>`;
  const footer = `<footer class="site"><p>${esc(center ? center.name : t(DEFAULT_LOCALE, "help.site_name"))}</p></footer>`;
  return `<!doctype html>\n<html lang="${center?.locale ?? DEFAULT_LOCALE}">\n<head>\n${meta}\n</head>\n<body>\n<a class="skip" href="#main">${tr(center, "help.skip")}</a>\n${header}\n<main id="main">\n${main}\n</main>\n${footer}${widgetScript(center)}\n</body>\n</html>\n`;
}

/** "Contact us" on every page of a help center that has a way to reach a person (help-center.contact.ts). */
function contactLink(center: HelpCenter): string {
  if (!center.contact) return "";
  const chat = center.contact.widgetKey ? " data-desk-chat" : "";
  return `<a class="contact" href="${esc(center.contact.href)}"${chat}>${tr(center, "help.contact_us")}</a>`;
}

/** The customer portal (`/portal/{workspace_slug}`), where a customer follows their requests. */
function requestsLink(center: HelpCenter): string {
  const portal = center.root.replace(/\/help\/([^/]+)$/, "/portal/$1");
  return `<a class="contact" href="${esc(portal)}">${tr(center, "help.your_requests")}</a>`;
}

/** The workspace's chat widget, on pages whose "Contact us" opens it. */
function widgetScript(center: HelpCenter | null): string {
  const key = center?.contact?.widgetKey;
  if (!key) return "";
  const base = center.url.slice(0, center.url.indexOf("/help/"));
  return `\n<script src="${esc(base)}/widget.js" data-key="${esc(key)}" data-locale="${center.locale}" async></script>`;
}

/** An article shown in a language other than the page's says so (`lang`), for screen readers and translators. */
const langOf = (center: HelpCenter, lang: Locale | undefined) =>
  lang && lang !== center.locale ? ` lang="${lang}"` : "";

function articleList(
  center: HelpCenter,
  articles: Array<PublishedArticleSummary & { lang?: Locale }>,
  withExcerpt: boolean,
): string {
  return `<ul class="articles">${articles
    .map(
      (a) =>
        `<li${langOf(center, a.lang)}><a href="${esc(articleUrl(center, a.slug))}">${esc(a.title)}</a>${
          withExcerpt && a.excerpt ? `<p>${esc(describe(a.excerpt, ""))}</p>` : ""
        }</li>`,
    )
    .join("")}</ul>`;
}

function crumbs(center: HelpCenter, items: Array<[string, string | null]>): string {
  return `<nav class="crumbs" aria-label="${tr(center, "help.breadcrumb")}"><ol>${items
    .map(([label, href]) =>
      href ? `<li><a href="${esc(href)}">${esc(label)}</a></li>` : `<li aria-current="page">${esc(label)}</li>`,
    )
    .join("")}</ol></nav>`;
}

export function homePage(center: HelpCenter, cssUrl: string, home: Awaited<ReturnType<typeof homeOf>>): string {
  const collections = home.collections.length
    ? `<h2>${tr(center, "help.collections")}</h2><ul class="collections">${home.collections
        .map(
          (c) =>
            `<li><h3><a href="${esc(collectionUrl(center, c.slug))}">${esc(c.name)}</a></h3>${
              c.description ? `<p>${esc(c.description)}</p>` : ""
            }<p class="meta">${tr(center, "help.article_count", { count: c.articleCount })}</p></li>`,
        )
        .join("")}</ul>`
    : `<p>${tr(center, "help.no_articles")}</p>`;
  const featured = home.featured.length
    ? `<h2>${tr(center, "help.popular")}</h2>${articleList(center, home.featured, false)}`
    : "";
  return layout(
    center,
    cssUrl,
    {
      title: center.title,
      description: t(center.locale, "help.home_description", { name: center.name }),
      canonical: center.url,
      ogType: "website",
    },
    `<h1>${esc(center.title)}</h1>\n${collections}\n${featured}`,
  );
}

export function collectionPage(
  center: HelpCenter,
  cssUrl: string,
  page: NonNullable<Awaited<ReturnType<typeof collectionPageOf>>>,
): string {
  const { collection, articles } = page;
  return layout(
    center,
    cssUrl,
    {
      title: `${collection.name} | ${center.title}`,
      description: describe(
        collection.description,
        t(center.locale, "help.collection_description", { collection: collection.name, center: center.title }),
      ),
      canonical: collectionUrl(center, collection.slug),
      ogType: "website",
    },
    `${crumbs(center, [
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
      languages: page.languages,
    },
    `${crumbs(center, trail)}<article class="body" lang="${article.lang}" aria-labelledby="article-title"><h1 id="article-title">${esc(article.title)}</h1><p class="meta">${tr(center, "help.updated", { date: "\u0000" }).replace("\u0000", time(center.locale, article.updatedAt))}</p>\n${article.bodyHtml}\n</article>`,
  );
}

export function searchPage(
  center: HelpCenter,
  cssUrl: string,
  q: string,
  hits: Array<PublishedArticleSummary & { lang?: Locale }>,
): string {
  const heading = q ? tr(center, "help.search_results", { query: q }) : tr(center, "help.search");
  const results = !q
    ? `<p>${tr(center, "help.search_hint")}</p>`
    : hits.length
      ? `<p>${tr(center, "help.search_count", { count: hits.length })}</p>${articleList(center, hits, true)}`
      : `<p>${tr(center, "help.no_match")} <a href="${esc(center.url)}">${tr(center, "help.browse")}</a></p>`;
  return layout(
    center,
    cssUrl,
    {
      title: `${q ? t(center.locale, "help.search_title", { query: q }) : t(center.locale, "help.search")} | ${center.title}`,
      description: t(center.locale, "help.search_description", { center: center.title }),
      canonical: `${center.url}/search${q ? `?q=${encodeURIComponent(q)}` : ""}`,
      ogType: "website",
      noindex: true,
    },
    `${crumbs(center, [
      [center.title, center.url],
      [t(center.locale, "help.search"), null],
    ])}<h1>${heading}</h1>${results}`,
    q,
  );
}

/** The plain 404 page: the same for an unknown page, a draft, and a help center that is off. */
export function notFoundPage(center: HelpCenter | null, cssUrl: string, canonical: string): string {
  return layout(
    center,
    cssUrl,
    {
      title: t(center?.locale ?? DEFAULT_LOCALE, "help.not_found_title"),
      description: t(center?.locale ?? DEFAULT_LOCALE, "help.not_found_description"),
      canonical,
      ogType: "website",
      noindex: true,
    },
    `<h1>${tr(center, "help.not_found_title")}</h1><p>${tr(center, "help.not_found_body")}</p>${
      center ? `<p><a href="${esc(center.url)}">${tr(center, "help.go_to", { center: center.title })}</a></p>` : ""
    }`,
  );
}

export function sitemap(entries: Array<{ url: string; lastmod: string | null }>): string {
  const urls = entries
    .map((e) => `<url><loc>${esc(e.url)}</loc>${e.lastmod ? `<lastmod>${esc(e.lastmod)}</lastmod>` : ""}</url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
