import {
  createdAt,
  id,
  index,
  integer,
  table,
  text,
  timestamp,
  uniqueIndex,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

/** Knowledge base collections: the sections of the help center, ordered by `position`. */
export const kbCollectionsTable = table(
  "kb_collections",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    /** Unique among the workspace's collections; kept when the name changes (links stay valid). */
    slug: text("slug").notNull(),
    description: text("description").notNull().default(""),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("kb_collections_slug_unique").on(t.workspaceId, t.slug),
    index("kb_collections_position_idx").on(t.workspaceId, t.position),
  ],
);

/** Knowledge base articles: stored sanitized (`body_html`) with `body_text` derived; in the FTS index (migrations/custom/0120). */
export const kbArticlesTable = table(
  "kb_articles",
  {
    id: id(),
    workspaceId: workspaceId(),
    collectionId: text("collection_id").notNull(),
    title: text("title").notNull(),
    /** Unique among the workspace's articles; kept when the title changes (links stay valid). */
    slug: text("slug").notNull(),
    bodyHtml: text("body_html").notNull().default(""),
    bodyText: text("body_text").notNull().default(""),
    status: text("status", { enum: ["draft", "published"] })
      .notNull()
      .default("draft"),
    views: integer("views").notNull().default(0),
    position: integer("position").notNull().default(0),
    publishedAt: timestamp("published_at"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("kb_articles_slug_unique").on(t.workspaceId, t.slug),
    index("kb_articles_collection_idx").on(t.workspaceId, t.collectionId, t.position),
    index("kb_articles_position_idx").on(t.workspaceId, t.position),
  ],
);

/**
 * An article in another of the help center's languages (DECISIONS.md "Languages"): one per article
 * and locale, sanitized like the article. `source_updated_at` is the article's `updated_at` when the
 * translation was saved: a later article change makes it outdated.
 */
export const kbArticleTranslationsTable = table(
  "kb_article_translations",
  {
    workspaceId: workspaceId(),
    articleId: text("article_id").notNull(),
    locale: text("locale").notNull(),
    title: text("title").notNull(),
    bodyHtml: text("body_html").notNull().default(""),
    bodyText: text("body_text").notNull().default(""),
    status: text("status", { enum: ["draft", "published"] })
      .notNull()
      .default("draft"),
    sourceUpdatedAt: timestamp("source_updated_at").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("kb_article_translations_unique").on(t.workspaceId, t.articleId, t.locale),
    index("kb_article_translations_locale_idx").on(t.workspaceId, t.locale, t.status),
  ],
);
