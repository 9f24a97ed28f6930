import { useVisitorTyping } from "../lib/realtime/presence";
import { t } from "../lib/i18n/i18n";

/** "Visitor is typing…" on a chat ticket, live from the widget (never stored). */
export function ChatTyping({ ticketId, name }: { ticketId: string; name: string }) {
  const typing = useVisitorTyping(ticketId);
  return (
    <div className="chat-typing small muted" role="status" aria-live="polite" data-testid="visitor-typing">
      {typing ? (name ? t("tickets.visitorTyping", { name }) : t("tickets.visitorTypingAnonymous")) : ""}
    </div>
  );
}

/** The chat badge of an inbox row: says when the visitor is typing there right now. */
export function ChatBadge({ ticketId }: { ticketId: string }) {
  const typing = useVisitorTyping(ticketId);
  return (
    <span className="pill pill-chat" data-testid="chat-badge">
      {typing ? t("tickets.chatBadgeTyping") : t("tickets.chatBadge")}
    </span>
  );
}
