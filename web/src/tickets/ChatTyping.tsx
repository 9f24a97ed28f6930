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
