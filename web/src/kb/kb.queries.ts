import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../lib/api/client";
import { listOf } from "../lib/api/queries";
import type { KbArticle, KbCollection, Page } from "../lib/api/types";
import { defineResource } from "../lib/realtime/invalidation";

export const kbKeys = {
  collections: ["kb-collections"] as const,
  articles: (collectionId: string) => ["kb-articles", collectionId] as const,
  allArticles: ["kb-articles"] as const,
  article: (id: string) => ["kb-article", id] as const,
};

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
        return id ? [kbKeys.allArticles, kbKeys.article(id)] : [kbKeys.allArticles];
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
