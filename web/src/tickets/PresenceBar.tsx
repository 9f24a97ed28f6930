import { useEffect } from "react";
import { announce, useViewers } from "../lib/realtime/presence";
import { useAuth } from "../lib/api/session";
import { Avatar } from "../lib/ui/bits";

/** Who else has this ticket open, and who is typing a reply; says this tab is viewing it. */
export function PresenceBar({ ticketId }: { ticketId: string }) {
  const self = useAuth().user?.id;
  useEffect(() => {
    announce(ticketId, "viewing");
    return () => announce(null);
  }, [ticketId]);
  const others = useViewers(ticketId, self);
  if (others.length === 0) return null;
  const typing = others.filter((v) => v.state === "typing");
  const names = (list: typeof others) => list.map((v) => v.name || "Someone").join(", ");
  return (
    <div className="presence" data-testid="presence" role="status" aria-live="polite">
      {others.map((v) => (
        <span key={v.user_id} title={`${v.name} is ${v.state === "typing" ? "typing" : "viewing"}`}>
          <Avatar name={v.name || "?"} size={18} />
        </span>
      ))}
      <span className="small">
        {typing.length
          ? `${names(typing)} ${typing.length === 1 ? "is" : "are"} typing a reply…`
          : `${names(others)} ${others.length === 1 ? "is" : "are"} also viewing`}
      </span>
    </div>
  );
}
