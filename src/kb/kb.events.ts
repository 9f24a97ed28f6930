import { z } from "zod";
import { defineEvent } from "../events/define";
import { KbArticleSchema, KbCollectionSchema } from "./kb.schemas";

const options = { readScope: "kb:read" } as const;

export const kbCollectionCreated = defineEvent(
  "kb_collection.created",
  z.object({ kb_collection: KbCollectionSchema }),
  { ...options, description: "A knowledge base collection was created." },
);
export const kbCollectionUpdated = defineEvent(
  "kb_collection.updated",
  z.object({ kb_collection: KbCollectionSchema }),
  { ...options, description: "A knowledge base collection changed (name, slug, description or position)." },
);
export const kbCollectionDeleted = defineEvent("kb_collection.deleted", z.object({ kb_collection_id: z.string() }), {
  ...options,
  description: "A knowledge base collection was deleted.",
});
export const kbArticleCreated = defineEvent("kb_article.created", z.object({ kb_article: KbArticleSchema }), {
  ...options,
  description: "A knowledge base article was created (as a draft or published).",
});
export const kbArticleUpdated = defineEvent("kb_article.updated", z.object({ kb_article: KbArticleSchema }), {
  ...options,
  description:
    "A knowledge base article changed: its text, slug, collection, position or status (published or back to draft). Views do not emit it.",
});
export const kbArticleDeleted = defineEvent("kb_article.deleted", z.object({ kb_article_id: z.string() }), {
  ...options,
  description: "A knowledge base article was deleted.",
});

export const kbEvents = [
  kbCollectionCreated,
  kbCollectionUpdated,
  kbCollectionDeleted,
  kbArticleCreated,
  kbArticleUpdated,
  kbArticleDeleted,
] as const;
