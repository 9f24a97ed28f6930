import type { kbArticles, kbCollections } from "./kb.table";

export type KbCollectionRow = typeof kbCollections.$inferSelect;
export type KbArticleRow = typeof kbArticles.$inferSelect;

export const presentCollection = (row: KbCollectionRow) => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  description: row.description,
  position: row.position,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export const presentArticle = (row: KbArticleRow) => ({
  id: row.id,
  collection_id: row.collectionId,
  title: row.title,
  slug: row.slug,
  body_html: row.bodyHtml,
  body_text: row.bodyText,
  status: row.status,
  views: row.views,
  published_at: row.publishedAt,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});
