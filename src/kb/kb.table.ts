import { deskTable } from "../db/schema-kit";
import { kbArticleTranslationsTable, kbArticlesTable, kbCollectionsTable } from "./kb.definition";

/** The builds of kb.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const kbCollections = deskTable("kb_collections", kbCollectionsTable);
export const kbArticles = deskTable("kb_articles", kbArticlesTable);
export const kbArticleTranslations = deskTable("kb_article_translations", kbArticleTranslationsTable);
