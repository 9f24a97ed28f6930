import { useEffect } from "react";
import { announce, useViewers } from "../lib/realtime/presence";
import { useAuth } from "../lib/api/session";
import { Avatar } from "../lib/ui/bits";
import { activeLocale, t } from "../lib/i18n/i18n";

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
  const names = (list: typeof others) =>
    new Intl.ListFormat(activeLocale(), { type: "conjunction" }).format(
      list.map((v) => v.name || t("tickets.someone")),
    );
  return (
    <div className="presence" data-testid="presence" role="status" aria-live="polite">
      {others.map((v) => (
        <span key={v.user_id} title={t("tickets.viewerState", { name: v.name, state: v.state })}>
          <Avatar name={v.name || "?"} size={18} />
        </span>
      ))}
      <span className="small">
        {typing.length
          ? t("tickets.othersTyping", { count: typing.length, names: names(typing) })
          : t("tickets.othersViewing", { count: others.length, names: names(others) })}
      </span>
    </div>
  );
}
