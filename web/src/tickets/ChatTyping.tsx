import { useVisitorTyping } from "../lib/realtime/presence";

/** "Visitor is typing…" on a chat ticket, live from the widget (never stored). */
export function ChatTyping({ ticketId, name }: { ticketId: string; name: string }) {
  const typing = useVisitorTyping(ticketId);
  return (
    <div className="chat-typing small muted" role="status" aria-live="polite" data-testid="visitor-typing">
      {typing ? `${name || "The visitor"} is typing…` : ""}
    </div>
  );
}

/** The chat badge of an inbox row: says when the visitor is typing there right now. */
export function ChatBadge({ ticketId }: { ticketId: string }) {
  const typing = useVisitorTyping(ticketId);
  return (
    <span className="pill pill-chat" data-testid="chat-badge">
      {typing ? "Chat · typing…" : "Chat"}
    </span>
  );
}
