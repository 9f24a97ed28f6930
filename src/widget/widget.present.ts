import type { MessageJson, TicketRow } from "../tickets/tickets.public";

/**
 * What a visitor may see of a message: SPEC.md keeps `reply_to`, `auth_failed`, `form_sender` (and
 * every other agent-only field: addresses, delivery, the author's email) from the widget.
 */
export function presentWidgetMessage(message: MessageJson) {
  const author = message.author;
  return {
    id: message.id,
    conversation_id: message.ticket_id,
    direction: message.direction,
    author: {
      type: author.type,
      name: author.user?.name ?? author.contact?.name ?? "",
      avatar_url: author.user?.avatar_url ?? author.contact?.avatar_url ?? null,
    },
    body_html: message.body_html,
    body_text: message.body_text,
    attachments: message.attachments,
    created_at: message.created_at,
  };
}

export function presentConversation(row: TicketRow) {
  return {
    id: row.id,
    number: row.number,
    subject: row.subject,
    status: row.status,
    last_message_at: row.lastMessageAt,
    last_message_preview: row.lastMessagePreview,
    created_at: row.createdAt,
  };
}
