import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../lib/api/client";
import { listOf } from "../lib/api/queries";
import type { AiTranslation, KbArticle, KbCollection, Page } from "../lib/api/types";
import type { operations } from "../lib/api-schema";
import { defineResource } from "../lib/realtime/invalidation";

export const kbKeys = {
  collections: ["kb-collections"] as const,
  articles: (collectionId: string) => ["kb-articles", collectionId] as const,
  allArticles: ["kb-articles"] as const,
  article: (id: string) => ["kb-article", id] as const,
  translations: (id: string) => ["kb-article-translations", id] as const,
};

/** An article's translation in its list: the pinned shape plus whether the article changed since it was saved. */
export type KbTranslation =
  operations["getKbArticlesByIdTranslations"]["responses"][200]["content"]["application/json"]["data"][number];
type KbTranslationInput = { title: string; body_html: string; status: "draft" | "published" };

export const kbResource = defineResource({
  name: "kb",
  keys: kbKeys,
  events: [
    { on: ["kb_collection.*"], invalidate: () => [kbKeys.collections] },
    {
      on: ["kb_article.*"],
      invalidate: (event) => {
        const data = event.data as { kb_article?: { id: string }; kb_article_id?: string };
        const id = data.kb_article?.id ?? data.kb_article_id;
        // An article change may make its translations outdated.
        return id ? [kbKeys.allArticles, kbKeys.article(id), kbKeys.translations(id)] : [kbKeys.allArticles];
      },
    },
  ],
});

export const useCollections = () =>
  useQuery({
    queryKey: kbKeys.collections,
    queryFn: async () => listOf(await api<Page<KbCollection>>("/kb/collections")),
  });

/** A collection's articles, drafts included, by position (up to 100: a collection rarely holds more). */
export const useArticles = (collectionId: string | null) =>
  useQuery({
    queryKey: kbKeys.articles(collectionId ?? ""),
    enabled: !!collectionId,
    queryFn: async () =>
      listOf(
        await api<Page<KbArticle>>(`/kb/articles?limit=100&collection_id=${encodeURIComponent(collectionId ?? "")}`),
      ),
  });

export const useArticle = (id: string) =>
  useQuery({ queryKey: kbKeys.article(id), queryFn: () => api<KbArticle>(`/kb/articles/${id}`) });

/** The article as the help center page would show it, from the editor's current (maybe unsaved) content. */
export const useArticlePreview = () =>
  useMutation({
    mutationFn: (body: { title: string; body_html: string; collection_id: string }) =>
      api<{ html: string }>("/help-center/preview", { body }),
  });

/** Every translation of an article (a handful: one per help-center language). */
export const useTranslations = (articleId: string) =>
  useQuery({
    queryKey: kbKeys.translations(articleId),
    queryFn: async () => listOf(await api<Page<KbTranslation>>(`/kb/articles/${articleId}/translations`)),
  });

/** Saving and deleting an article's translations; no event follows them, so each refreshes the list itself. */
export function useTranslationWrites(articleId: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: kbKeys.translations(articleId) });
  const path = (locale: string) => `/kb/articles/${articleId}/translations/${encodeURIComponent(locale)}`;
  return {
    save: useMutation({
      mutationFn: ({ locale, ...body }: KbTranslationInput & { locale: string }) =>
        api<KbTranslation>(path(locale), { method: "PUT", body }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (locale: string) => api<null>(path(locale), { method: "DELETE" }),
      onSuccess: refresh,
    }),
    /** The article's title and body in `target` by the AI's translate feature: a draft to review, never saved here. */
    draft: useMutation({
      mutationFn: async ({ title, html, target }: { title: string; html: string; target: string }) => {
        const [titled, body] = await Promise.all([
          api<AiTranslation>("/ai/translate", { body: { text: title, target } }),
          html.trim() ? api<AiTranslation>("/ai/translate", { body: { html, target } }) : Promise.resolve(null),
        ]);
        return { title: (titled.text ?? title).trim(), body_html: body?.html ?? "" };
      },
    }),
  };
}

export function useKbWrites() {
  const client = useQueryClient();
  const refresh = () => {
    client.invalidateQueries({ queryKey: kbKeys.collections });
    client.invalidateQueries({ queryKey: kbKeys.allArticles });
  };
  return {
    createCollection: useMutation({
      mutationFn: (body: { name: string; description?: string }) => api<KbCollection>("/kb/collections", { body }),
      onSuccess: refresh,
    }),
    updateCollection: useMutation({
      mutationFn: ({ id, ...body }: { id: string; name?: string; description?: string }) =>
        api<KbCollection>(`/kb/collections/${id}`, { method: "PATCH", body }),
      onSuccess: refresh,
    }),
    deleteCollection: useMutation({
      mutationFn: (id: string) => api<null>(`/kb/collections/${id}`, { method: "DELETE" }),
      onSuccess: refresh,
    }),
    createArticle: useMutation({
      mutationFn: (body: { collection_id: string; title: string }) => api<KbArticle>("/kb/articles", { body }),
      onSuccess: refresh,
    }),
    updateArticle: useMutation({
      mutationFn: ({ id, ...body }: { id: string } & Record<string, unknown>) =>
        api<KbArticle>(`/kb/articles/${id}`, { method: "PATCH", body }),
      onSuccess: (article) => {
        client.setQueryData(kbKeys.article(article.id), article);
        refresh();
      },
    }),
    /** Puts the articles of a collection in the given order (positions 0, 1, 2, …). */
    reorderArticles: useMutation({
      mutationFn: async (ids: string[]) => {
        for (const [position, id] of ids.entries())
          await api<KbArticle>(`/kb/articles/${id}`, { method: "PATCH", body: { position } });
      },
      onSettled: refresh,
    }),
    deleteArticle: useMutation({
      mutationFn: (id: string) => api<null>(`/kb/articles/${id}`, { method: "DELETE" }),
      onSuccess: refresh,
    }),
  };
}
