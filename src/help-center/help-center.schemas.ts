import { z } from "zod";

export const PublicCollectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  article_count: z.number().int(),
  url: z.string(),
});

export const PublicArticleSummarySchema = z.object({
  id: z.string(),
  collection_id: z.string(),
  title: z.string(),
  slug: z.string(),
  excerpt: z.string(),
  published_at: z.string().nullable(),
  updated_at: z.string(),
  url: z.string(),
});

export const PublicArticleSchema = z.object({
  id: z.string(),
  collection_id: z.string(),
  collection: z.object({ id: z.string(), name: z.string(), slug: z.string(), url: z.string() }).nullable(),
  title: z.string(),
  slug: z.string(),
  body_html: z.string(),
  body_text: z.string(),
  published_at: z.string().nullable(),
  updated_at: z.string(),
  url: z.string(),
});

export const HelpCenterHomeSchema = z.object({
  title: z.string(),
  url: z.string(),
  brand_color: z.string().nullable(),
  logo_url: z.string().nullable(),
  favicon_url: z.string().nullable(),
  collections: z.array(PublicCollectionSchema),
  featured: z.array(PublicArticleSummarySchema),
});

export const HelpCenterCollectionSchema = z.object({
  collection: PublicCollectionSchema,
  articles: z.array(PublicArticleSummarySchema),
});

export const HelpCenterSearchSchema = z.object({ data: z.array(PublicArticleSummarySchema) });

const WorkspaceSlug = z.string().min(1).max(100);
export const HelpParams = z.object({ workspace_slug: WorkspaceSlug });
export const HelpSlugParams = z.object({ workspace_slug: WorkspaceSlug, slug: z.string().min(1).max(200) });
export const HelpSearchQuery = z.object({ q: z.string().trim().max(500).default("") });

export const ArticlePreviewBody = z.strictObject({
  title: z.string().trim().min(1).max(200),
  body_html: z.string().max(500_000),
  collection_id: z.string().min(1).max(100).nullish(),
});
export const ArticlePreviewSchema = z.object({ html: z.string() });
