/**
 * The PostgreSQL builds of kb.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./kb.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { kbArticleTranslationsTable, kbArticlesTable, kbCollectionsTable } from "./kb.definition";

export const kbCollections = pgTable("kb_collections", kbCollectionsTable);
export const kbArticles = pgTable("kb_articles", kbArticlesTable);
export const kbArticleTranslations = pgTable("kb_article_translations", kbArticleTranslationsTable);
