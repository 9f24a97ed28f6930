import { type InfiniteData, type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../lib/api/client";
import type { Activity, Attachment, Message, Page, Ticket } from "../lib/api/types";
import { LINK_REFRESH_MS } from "./attachment-links";
import { ticketKeys } from "./tickets.queries";

/** The ticket numbers of the list last shown, so j/k can walk through them from a ticket. */
export let lastListNumbers: number[] = [];
export const rememberList = (numbers: number[]) => {
  lastListNumbers = numbers;
};

/** A ticket already in a loaded list: the page paints at once and refreshes behind. */
function fromLists(client: QueryClient, number: string): Ticket | undefined {
  for (const [, data] of client.getQueriesData<InfiniteData<Page<Ticket>>>({ queryKey: ticketKeys.lists })) {
    for (const page of data?.pages ?? []) {
      const found = page.data.find((t) => String(t.number) === number);
      if (found) return found;
    }
  }
  return undefined;
}

export function useTicket(number: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: ticketKeys.one(number),
    queryFn: () => api<Ticket>(`/tickets/${encodeURIComponent(number)}`),
    initialData: () => fromLists(client, number),
    initialDataUpdatedAt: 0,
  });
}

export type TimelineItem =
  | { kind: "message"; at: string; message: Message }
  | { kind: "activity"; at: string; activity: Activity };

const listOf = <T>(body: T[] | Page<T>) => (Array.isArray(body) ? body : body.data);

/** Messages and activities, merged in time order. */
export function useTimeline(ticketId: string | undefined) {
  return useQuery({
    // Disabled until the ticket has loaded: the empty id is never fetched.
    queryKey: ticketKeys.timeline(ticketId ?? ""),
    enabled: !!ticketId,
    queryFn: async () => {
      const [messages, activities] = await Promise.all([
        api<Message[] | Page<Message>>(`/tickets/${ticketId}/messages`),
        api<Activity[] | Page<Activity>>(`/tickets/${ticketId}/activities`).catch(() => [] as Activity[]),
      ]);
      const items: TimelineItem[] = [
        ...listOf(messages).map((message) => ({ kind: "message" as const, at: message.created_at, message })),
        ...listOf(activities).map((activity) => ({ kind: "activity" as const, at: activity.created_at, activity })),
      ];
      return items.sort((a, b) => a.at.localeCompare(b.at));
    },
    // Attachment links are signed for about five minutes: read them again before they run out.
    refetchInterval: LINK_REFRESH_MS,
  });
}

/** Re-reads the timeline and answers the attachment with its fresh signed link. */
export function attachmentRefresher(refetch: () => Promise<{ data?: TimelineItem[] }>) {
  let pending: Promise<{ data?: TimelineItem[] }> | null = null;
  return async (attachmentId: string): Promise<Attachment | undefined> => {
    // Several failing images share one re-read.
    pending ??= refetch().finally(() => setTimeout(() => (pending = null), 1000));
    const { data } = await pending;
    for (const item of data ?? []) {
      if (item.kind !== "message") continue;
      const found = item.message.attachments?.find((a) => a.id === attachmentId);
      if (found) return found;
    }
    return undefined;
  };
}

/** PATCH /v1/tickets/{id}; the answer replaces the cached ticket. */
export function usePatchTicket(ticket: Ticket | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: Record<string, unknown>) =>
      api<Ticket>(`/tickets/${ticket!.id}`, { method: "PATCH", body: patch }),
    onSuccess: (updated) => {
      client.setQueryData(ticketKeys.one(String(updated.number)), updated);
      client.invalidateQueries({ queryKey: ticketKeys.lists });
      client.invalidateQueries({ queryKey: ticketKeys.counts });
      client.invalidateQueries({ queryKey: ticketKeys.timeline(updated.id) });
    },
  });
}
