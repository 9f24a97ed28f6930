import type { PublishedArticleSummary } from "../kb/kb.public";
import {
  type ArticlePage,
  articleUrl,
  collectionUrl,
  type collectionPageOf,
  type HelpCenter,
  type homeOf,
} from "./help-center.service";

type Collection = Awaited<ReturnType<typeof homeOf>>["collections"][number];

export const presentPublicCollection = (center: HelpCenter, c: Collection) => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  description: c.description,
  article_count: c.articleCount,
  url: collectionUrl(center, c.slug),
});

export const presentArticleSummary = (center: HelpCenter, a: PublishedArticleSummary) => ({
  id: a.id,
  collection_id: a.collectionId,
  title: a.title,
  slug: a.slug,
  excerpt: a.excerpt,
  published_at: a.publishedAt,
  updated_at: a.updatedAt,
  url: articleUrl(center, a.slug),
});

export const presentHome = (center: HelpCenter, home: Awaited<ReturnType<typeof homeOf>>) => ({
  title: center.title,
  url: center.url,
  brand_color: center.brandColor,
  logo_url: center.logoUrl,
  favicon_url: center.faviconUrl,
  collections: home.collections.map((c) => presentPublicCollection(center, c)),
  featured: home.featured.map((a) => presentArticleSummary(center, a)),
});

export const presentCollectionPage = (
  center: HelpCenter,
  page: NonNullable<Awaited<ReturnType<typeof collectionPageOf>>>,
) => ({
  collection: presentPublicCollection(center, { ...page.collection, articleCount: page.articles.length }),
  articles: page.articles.map((a) => presentArticleSummary(center, a)),
});

export const presentPublicArticle = (center: HelpCenter, { article, collection }: ArticlePage) => ({
  id: article.id,
  collection_id: article.collectionId,
  collection: collection
    ? { id: collection.id, name: collection.name, slug: collection.slug, url: collectionUrl(center, collection.slug) }
    : null,
  title: article.title,
  slug: article.slug,
  body_html: article.bodyHtml,
  body_text: article.bodyText,
  published_at: article.publishedAt,
  updated_at: article.updatedAt,
  url: articleUrl(center, article.slug),
});
