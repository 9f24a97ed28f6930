import type { Envelope } from "../events/envelope";
import type { MessageJson } from "../tickets/tickets.public";
import { presentWidgetMessage } from "./widget.present";

/**
 * What a visitor's socket receives of a public event: a chat reply as the widget's REST routes show
 * it (no notes, no agent-only fields) and only the contact's own topic named. Anything else public
 * that a later feature adds reaches no visitor until it is written here.
 */
export function visitorView(envelope: Envelope): Envelope | null {
  if (envelope.type !== "message.created" || envelope.visibility !== "public") return null;
  const data = envelope.data as { ticket_id?: string; message?: MessageJson };
  if (data.message?.kind !== "reply" || typeof data.ticket_id !== "string") return null;
  return {
    ...envelope,
    topics: envelope.topics.filter((topic) => topic.startsWith("contact:")),
    data: { ticket_id: data.ticket_id, message: presentWidgetMessage(data.message) },
  };
}
