import type { Notification } from "../lib/api/types";

/** One line saying what happened (the same wording as the notification emails). */
export function notificationText(n: Pick<Notification, "type" | "ticket" | "data">): string {
  const ticket = n.ticket ? `#${n.ticket.number} ${n.ticket.subject}` : "";
  const by = typeof n.data.by_name === "string" ? n.data.by_name : null;
  switch (n.type) {
    case "assigned":
      return `${ticket} was assigned to you${by ? ` by ${by}` : ""}`;
    case "mentioned":
      return `${by ?? "Someone"} mentioned you on ${ticket}`;
    case "note_added":
      return `${by ?? "Someone"} added a note on ${ticket}`;
    case "customer_replied":
      return `${by ?? "The customer"} replied on ${ticket}`;
    case "sla_breached":
      return `SLA breached on ${ticket}`;
    case "ai_handoff":
      return `The chat on ${ticket} was handed to people`;
    default:
      return `${n.type.replace(/_/g, " ")}${ticket ? ` on ${ticket}` : ""}`;
  }
}
