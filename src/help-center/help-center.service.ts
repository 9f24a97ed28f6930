import type { Db, Queryable } from "../db/database";
import {
  countArticleView,
  featuredArticles,
  type InLanguage,
  type PublishedArticle,
  type PublishedArticleSummary,
  publishedArticleIn,
  publishedArticlesOf,
  publishedCollectionById,
  publishedCollectionBySlug,
  publishedCollections,
  publishedLanguagesOf,
  searchPublishedArticlesIn,
  summariesIn,
} from "../kb/kb.public";
import { t } from "../i18n/i18n";
import { type Locale, workspaceLocales } from "../i18n/locales";
import { notFound } from "../lib/errors";
import { findWorkspaceBySlug } from "../workspaces/workspaces.public";

/** Most read articles on the home page. */
export const FEATURED = 6;
/** Matches a help center search shows. */
export const SEARCH_LIMIT = 20;

/** A workspace whose help center is on, with what its pages show of it. */
/** Where a page's "Contact us" leads (`contactLinkOf`). */
export type ContactLink = { href: string; widgetKey: string | null };

export type HelpCenter = {
  workspaceId: string;
  slug: string;
  name: string;
  title: string;
  /** False while the title is the default one, which each language words its own way. */
  ownTitle: boolean;
  brandColor: string | null;
  logoUrl: string | null;
  faviconUrl: string | null;
  updatedAt: string;
  /** `{base_url}/help/{workspace_slug}`, no trailing slash; pages localize it to `root/{locale}`. */
  url: string;
  /** `{base_url}/help/{workspace_slug}` whatever the language (the contact form and portal links hang off it). */
  root: string;
  /** The language of the pages (WorkspaceSettings `locale`, or the one the path or Accept-Language chose). */
  locale: Locale;
  /** The help center's languages (WorkspaceSettings `locales`), the hreflang alternates and switcher. */
  locales: Locale[];
  /** Where the pages' "Contact us" leads (help-center.contact.ts); absent on answers that show none. */
  contact?: ContactLink | null;
};

/** The help center at `slug`, or null when the workspace is unknown, deleted or its help center is not enabled. */
export async function helpCenterAt(db: Queryable, baseUrl: string, slug: string): Promise<HelpCenter | null> {
  const workspace = await findWorkspaceBySlug(db, slug);
  if (workspace?.settings?.help_center_enabled !== true) return null;
  return helpCenterOf(baseUrl, workspace);
}

/** What the help center of `workspace` shows of it, whether or not it is on (a preview reads it while off). */
export function helpCenterOf(
  baseUrl: string,
  workspace: NonNullable<Awaited<ReturnType<typeof findWorkspaceBySlug>>>,
): HelpCenter {
  const settings = workspace.settings ?? {};
  const images = workspace.images ?? {};
  const title = typeof settings.help_center_title === "string" && settings.help_center_title.trim();
  const languages = workspaceLocales(settings);
  return {
    workspaceId: workspace.id,
    slug: workspace.slug,
    name: workspace.name,
    title: title || t(languages.primary, "help.default_title", { name: workspace.name }),
    ownTitle: Boolean(title),
    brandColor: typeof settings.brand_color === "string" ? settings.brand_color : null,
    logoUrl: absolute(baseUrl, images.help_center_logo ?? null),
    faviconUrl: absolute(baseUrl, images.help_center_favicon ?? null),
    updatedAt: workspace.updatedAt,
    url: `${baseUrl}/help/${encodeURIComponent(workspace.slug)}`,
    root: `${baseUrl}/help/${encodeURIComponent(workspace.slug)}`,
    locale: languages.primary,
    locales: languages.locales,
  };
}

const absolute = (baseUrl: string, url: string | null) => (url?.startsWith("/") ? `${baseUrl}${url}` : url);

export async function requireHelpCenter(db: Queryable, baseUrl: string, slug: string): Promise<HelpCenter> {
  const center = await helpCenterAt(db, baseUrl, slug);
  if (!center) throw notFound("Help center");
  return center;
}

export const articleUrl = (center: HelpCenter, slug: string) => `${center.url}/articles/${encodeURIComponent(slug)}`;
export const collectionUrl = (center: HelpCenter, slug: string) =>
  `${center.url}/collections/${encodeURIComponent(slug)}`;

export async function homeOf(db: Queryable, center: HelpCenter) {
  return {
    collections: await publishedCollections(db, center.workspaceId),
    featured: await summariesIn(
      db,
      center.workspaceId,
      center.locale,
      await featuredArticles(db, center.workspaceId, FEATURED),
    ),
  };
}

export async function collectionPageOf(db: Queryable, center: HelpCenter, slug: string) {
  const collection = await publishedCollectionBySlug(db, center.workspaceId, slug);
  if (!collection) return null;
  return {
    collection,
    articles: await summariesIn(
      db,
      center.workspaceId,
      center.locale,
      await publishedArticlesOf(db, center.workspaceId, collection.id),
    ),
  };
}

export type ArticlePage = {
  /** In the page's language when it has a published translation into it, else in its own (`lang`). */
  article: InLanguage<PublishedArticle>;
  /** The languages it is published in: its own and its published translations' (the hreflang alternates). */
  languages: Locale[];
  collection: { id: string; name: string; slug: string; updatedAt: string } | null;
};

/** A published article and its collection; counts a view when `countView` (GET, not HEAD). */
export async function articlePageOf(
  db: Db,
  center: HelpCenter,
  slug: string,
  countView: boolean,
): Promise<ArticlePage | null> {
  const article = await publishedArticleIn(db, center.workspaceId, slug, center.locale);
  if (!article) return null;
  if (countView) await countArticleView(db, center.workspaceId, article.id);
  const collection = (await publishedCollectionById(db, center.workspaceId, article.collectionId)) ?? null;
  return { article, collection, languages: await publishedLanguagesOf(db, center.workspaceId, article.id) };
}

export async function searchOf(
  db: Queryable,
  center: HelpCenter,
  q: string,
): Promise<Array<InLanguage<PublishedArticleSummary>>> {
  return await searchPublishedArticlesIn(db, center.workspaceId, q, SEARCH_LIMIT, center.locale);
}
