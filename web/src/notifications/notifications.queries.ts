import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, qs } from "../lib/api/client";
import type { NotificationPage } from "../lib/api/types";
import { defineResource } from "../lib/realtime/invalidation";

export const notificationsKeys = {
  all: ["notifications"] as const,
  badge: ["notifications", "badge"] as const,
  list: (unread: boolean) => ["notifications", "list", unread] as const,
  preferences: ["notification-preferences"] as const,
};

/** `notification.created` reaches only its person's socket (others get a stand-in): the bell and the list refresh. */
export const notificationsResource = defineResource({
  name: "notifications",
  keys: notificationsKeys,
  events: [{ on: ["notification.created"], invalidate: () => [notificationsKeys.all] }],
});

/** The unread count for the bell (one notification fetched; the answer carries the total). */
export function useUnreadCount() {
  return useQuery({
    queryKey: notificationsKeys.badge,
    queryFn: async () => (await api<NotificationPage>(`/notifications${qs({ limit: 1, unread: true })}`)).unread_count,
    staleTime: 60_000,
    refetchOnWindowFocus: true,
  });
}

export function useNotifications(unread: boolean) {
  return useInfiniteQuery({
    queryKey: notificationsKeys.list(unread),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api<NotificationPage>(`/notifications${qs({ limit: 30, unread: unread || null, cursor: pageParam })}`),
    getNextPageParam: (last) => last.next_cursor,
  });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: string[] } | { all: true }) =>
      api<{ updated: number; unread_count: number }>("/notifications/read", { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationsKeys.all }),
  });
}

export type EmailPreference = "immediately" | "digest" | "off";

export function useNotificationPreferences() {
  return useQuery({
    queryKey: notificationsKeys.preferences,
    queryFn: () => api<{ email: EmailPreference }>("/notifications/preferences"),
  });
}

export function useSetNotificationPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: EmailPreference) =>
      api<{ email: EmailPreference }>("/notifications/preferences", { method: "PUT", body: { email } }),
    onSuccess: (answer) => client.setQueryData(notificationsKeys.preferences, answer),
  });
}
