import { type QueryKey, useQuery } from "@tanstack/react-query";
import { api } from "./client";
import type { Page } from "./types";
import { sessionKeys } from "./session";

/** Lists that answer either a bare array or a page: the web app takes both. */
export const listOf = <T>(body: T[] | Page<T>): T[] => (Array.isArray(body) ? body : body.data);

/** A hook reading a whole settings-like list (labels, members, teams, …), fresh for 30 s. */
export const listQuery =
  <T>(queryKey: QueryKey, path: string) =>
  () =>
    useQuery({ queryKey, queryFn: async () => listOf(await api<T[] | Page<T>>(path)), staleTime: 30_000 });

export type InstanceStatus = { signup_open: boolean; has_users: boolean };

/** GET /v1/auth/status: a fresh instance (no user yet) opens on setup, any other on sign-in. */
export function useInstanceStatus(enabled = true) {
  return useQuery({
    queryKey: sessionKeys.instanceStatus,
    queryFn: () => api<InstanceStatus>("/auth/status", { workspace: false }),
    enabled,
    staleTime: 60_000,
  });
}
