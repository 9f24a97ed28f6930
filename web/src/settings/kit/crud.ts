import { type QueryKey, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api/client";
import { listOf } from "../../lib/api/queries";
import type { Page } from "../../lib/api/types";

/** List, create, update and delete for one settings collection (`/v1/<path>`), cached under its factory's key. */
export function useCrud<T extends { id: string }>(queryKey: QueryKey, path: string) {
  const client = useQueryClient();
  const invalidate = () => client.invalidateQueries({ queryKey });
  const list = useQuery({ queryKey, queryFn: async () => listOf(await api<T[] | Page<T>>(path)) });
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<T>(path, { body }),
    onSuccess: invalidate,
  });
  const update = useMutation({
    mutationFn: ({ id, ...body }: { id: string } & Record<string, unknown>) =>
      api<T>(`${path}/${id}`, { method: "PATCH", body }),
    onSuccess: invalidate,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api<null>(`${path}/${id}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
  return { list, create, update, remove };
}
