import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api } from "../lib/api/client";

/** When this person last opened each ticket (GET/PUT /v1/ticket-reads): the inbox's read/unread state. */
const readKeys = { all: ["ticket-reads"] as const, among: (ids: string[]) => ["ticket-reads", ids.join(",")] as const };

type Reads = { data: Array<{ ticket_id: string; seen_at: string }> };

/** The person's marks among the rows in view (at most 100 ids a request, as the API takes). */
export function useTicketReads(ids: string[]): Map<string, string> | null {
  const asked = ids.slice(0, 100);
  const reads = useQuery({
    queryKey: readKeys.among(asked),
    queryFn: () => api<Reads>(`/ticket-reads?ticket_ids=${asked.map(encodeURIComponent).join(",")}`),
    enabled: asked.length > 0,
    staleTime: 30_000,
    placeholderData: (previous) => previous,
  });
  if (!reads.data) return null;
  return new Map(reads.data.data.map((r) => [r.ticket_id, r.seen_at]));
}

/** Unread: activity newer than the person's last look, or never opened. */
export const isUnread = (reads: Map<string, string> | null, ticket: { id: string; last_message_at: string }) =>
  reads !== null && (reads.get(ticket.id) ?? "") < ticket.last_message_at;

/** Marks an open ticket seen, again whenever new activity arrives while it is open. */
export function useMarkSeen(ticket: { id: string; last_message_at: string } | undefined): void {
  const client = useQueryClient();
  const id = ticket?.id;
  const last = ticket?.last_message_at;
  useEffect(() => {
    if (!id || !last) return;
    api(`/ticket-reads/${id}`, { method: "PUT" })
      .then(() => client.invalidateQueries({ queryKey: readKeys.all }))
      .catch(() => undefined);
  }, [id, last, client]);
}
