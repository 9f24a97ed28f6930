import { api } from "../lib/api/client";
import type { Ticket } from "../lib/api/types";

const sinceKey = (ticketId: string) => `desk.draft.${ticketId}.reply.since`;

/**
 * "A newer reply arrived since you started writing": the ticket's `last_message_at` (moved by every
 * reply, from the customer or a colleague) is remembered when a reply draft begins, beside the
 * draft in sessionStorage, and compared with a fresh read before sending. Server times on both
 * sides, so the browser's clock does not matter.
 */
export function replyCollision(ticket: Pick<Ticket, "id" | "last_message_at">) {
  const key = sinceKey(ticket.id);
  return {
    /** On every change of the reply text: an empty draft forgets, a new one starts counting. */
    drafting(text: string) {
      if (!text) sessionStorage.removeItem(key);
      else if (sessionStorage.getItem(key) === null) sessionStorage.setItem(key, ticket.last_message_at);
    },
    /** The newer reply's time when one arrived since the draft began, else null. */
    async newerReply(): Promise<string | null> {
      const since = sessionStorage.getItem(key);
      if (!since) return null;
      const fresh = await api<Ticket>(`/tickets/${ticket.id}`);
      return fresh.last_message_at > since ? fresh.last_message_at : null;
    },
    /** The agent has looked at it: the draft now counts from that reply. */
    seen(at: string) {
      sessionStorage.setItem(key, at);
    },
    sent() {
      sessionStorage.removeItem(key);
    },
  };
}
