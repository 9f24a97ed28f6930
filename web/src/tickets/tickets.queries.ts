import { useQuery } from "@tanstack/react-query";
import { api } from "../lib/api/client";
import { listOf, listQuery } from "../lib/api/queries";
import type { Page, Sender, Ticket, TicketCounts } from "../lib/api/types";
import { defineResource } from "../lib/realtime/invalidation";
import { mailboxesKeys } from "../lib/resources/mailboxes";

/** Every query over tickets starts with one of these keys. */
export const ticketKeys = {
  /** The inbox lists (`["tickets", filters]`). */
  lists: ["tickets"] as const,
  list: (filters: object) => ["tickets", filters] as const,
  /** One ticket, by number (the ticket page) or id. */
  one: (ref: string) => ["ticket", ref] as const,
  /** A ticket's messages and activities. */
  timeline: (ticketId: string) => ["timeline", ticketId] as const,
  /** The inbox counts, views' counts included. */
  counts: ["counts"] as const,
  /** A contact's tickets (`["contact-tickets", contactId]`). */
  ofContacts: ["contact-tickets"] as const,
  ofContact: (contactId: string) => ["contact-tickets", contactId] as const,
};

export const ticketsResource = defineResource({
  name: "tickets",
  keys: ticketKeys,
  events: [
    {
      on: ["ticket.*"],
      // The event carries the ticket as the REST answer presents it: the open page updates at once.
      update: (client, event) => {
        const ticket = event.data.ticket as Ticket | undefined;
        if (!ticket) return;
        client.setQueryData(ticketKeys.one(String(ticket.number)), ticket);
        client.setQueryData(ticketKeys.one(ticket.id), ticket);
      },
      invalidate: () => [ticketKeys.lists, ticketKeys.counts, ticketKeys.ofContacts],
    },
    {
      on: ["message.*", "activity.*"],
      invalidate: (event) => [ticketKeys.timeline(event.data.ticket_id as string), ticketKeys.lists],
    },
    // A view's counts come with the ticket counts.
    { on: ["view.*"], invalidate: () => [ticketKeys.counts] },
    // A private team's event we may not see in full: refresh the lists that could hold it.
    { on: ["event.*"], invalidate: () => [ticketKeys.lists, ticketKeys.counts] },
  ],
});

/**
 * A contact's tickets as an array. The ticket sidebar and the contact page share this cache entry,
 * so both must store the same shape under ["contact-tickets", id] (they once stored different
 * ones and the contact page crashed on the sidebar's).
 */
export function useContactTickets(contactId: string) {
  return useQuery({
    queryKey: ticketKeys.ofContact(contactId),
    queryFn: async () => listOf(await api<Ticket[] | Page<Ticket>>(`/contacts/${contactId}/tickets`)),
  });
}

export function useCounts() {
  return useQuery({
    queryKey: ticketKeys.counts,
    queryFn: () => api<TicketCounts>("/tickets/counts"),
    staleTime: 10_000,
  });
}

/**
 * The mailboxes a ticket can be mailed from, the default first. Under the mailboxes' key, so a
 * `mailbox.*` event (the settings' own invalidation rule) refreshes it too.
 */
export const useSenders = listQuery<Sender>(mailboxesKeys.senders, "/senders");
