/** What other features may use of the knowledge base: the help center's published reads, and article search. */
export {
  countArticleView,
  featuredArticles,
  publishedArticleBySlug,
  publishedArticleSlugs,
  publishedArticlesOf,
  publishedCollectionById,
  publishedCollectionBySlug,
  publishedCollections,
  searchPublishedArticles,
  searchPublishedArticleTexts,
  type PublishedArticle,
  type PublishedArticleSummary,
} from "./kb.published";
export {
  type InLanguage,
  publishedArticleIn,
  publishedArticleLanguages,
  publishedLanguagesOf,
  searchPublishedArticlesIn,
  summariesIn,
} from "./kb.localized";
export { articlesByIds, searchArticles } from "./kb.global-search";
export { KbArticleSchema, KbCollectionSchema } from "./kb.schemas";

/** Events others' consumers and hooks name (src/events/define.ts): their data is typed from these. */
export { kbArticleCreated, kbArticleDeleted, kbArticleUpdated } from "./kb.events";
