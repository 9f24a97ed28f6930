import type { Notification } from "../lib/api/types";
import { t } from "../lib/i18n/i18n";

/** One line saying what happened (the same wording as the notification emails). */
export function notificationText(n: Pick<Notification, "type" | "ticket" | "data">): string {
  const ticket = n.ticket ? t("notifications.ticketRef", { number: n.ticket.number, subject: n.ticket.subject }) : "";
  const by = typeof n.data.by_name === "string" ? n.data.by_name : null;
  switch (n.type) {
    case "assigned":
      return by ? t("notifications.assignedBy", { ticket, name: by }) : t("notifications.assigned", { ticket });
    case "mentioned":
      return t("notifications.mentioned", { ticket, name: by ?? t("notifications.someone") });
    case "note_added":
      return t("notifications.noteAdded", { ticket, name: by ?? t("notifications.someone") });
    case "customer_replied":
      return t("notifications.customerReplied", { ticket, name: by ?? t("notifications.theCustomer") });
    case "sla_breached":
      return t("notifications.slaBreached", { ticket });
    case "ai_handoff":
      return t("notifications.aiHandoff", { ticket });
    default: {
      // A type this app does not know yet: its name as the server spells it.
      const type = n.type.replace(/_/g, " ");
      return ticket ? t("notifications.otherOnTicket", { type, ticket }) : type;
    }
  }
}
