import { sqliteTable } from "../db/schema-kit";
import { kbArticleTranslationsTable, kbArticlesTable, kbCollectionsTable } from "./kb.definition";

/** The SQLite builds of kb.definition.ts: what every query, type and migration uses. */
export const kbCollections = sqliteTable("kb_collections", kbCollectionsTable);
export const kbArticles = sqliteTable("kb_articles", kbArticlesTable);
export const kbArticleTranslations = sqliteTable("kb_article_translations", kbArticleTranslationsTable);
