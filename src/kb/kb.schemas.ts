import { z } from "zod";
import { PageQuery } from "../http/schemas";

export const KbCollectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  position: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const KbArticleSchema = z.object({
  id: z.string(),
  collection_id: z.string(),
  title: z.string(),
  slug: z.string(),
  body_html: z.string(),
  body_text: z.string(),
  status: z.enum(["draft", "published"]),
  views: z.number().int(),
  published_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** Lower-case words of letters and digits joined by single hyphens: what a URL path segment reads well as. */
export const Slug = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "a slug is lower-case letters and digits joined by single hyphens");

const Position = z.number().int().min(0).max(1_000_000);

export const CreateCollectionBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  slug: Slug.optional(),
  description: z.string().trim().max(1000).optional(),
  position: Position.optional(),
});
export const UpdateCollectionBody = CreateCollectionBody.partial();

export const CreateArticleBody = z.strictObject({
  collection_id: z.string().min(1).max(100),
  title: z.string().trim().min(1).max(200),
  slug: Slug.optional(),
  body_html: z.string().max(500_000).optional(),
  status: z.enum(["draft", "published"]).optional(),
  position: Position.optional(),
});
export const UpdateArticleBody = CreateArticleBody.partial();

export const ArticleListQuery = PageQuery.extend({
  collection_id: z.string().max(100).optional(),
  status: z.enum(["draft", "published"]).optional(),
  q: z.string().trim().max(500).optional(),
});

/** An article in another help-center language (DECISIONS.md "Languages", pinned shape). */
export const KbArticleTranslationSchema = z.object({
  locale: z.string(),
  title: z.string(),
  body_html: z.string(),
  body_text: z.string(),
  status: z.enum(["draft", "published"]),
  updated_at: z.string(),
});
/** A translation in the article's list: `outdated` once the article changed after the translation was saved. */
export const KbArticleTranslationListItemSchema = KbArticleTranslationSchema.extend({ outdated: z.boolean() });

export const TranslationParams = z.object({ id: z.string().min(1).max(100), locale: z.string().min(1).max(35) });

/** A PUT replaces the whole translation: what it leaves out goes back to its default. */
export const PutTranslationBody = z.strictObject({
  title: z.string().trim().min(1).max(200),
  body_html: z.string().max(500_000).optional(),
  status: z.enum(["draft", "published"]).optional(),
});
