import { linkHandler } from "../lib/router/router";
import { useUnreadCount } from "./notifications.queries";

/** The header's bell: unread count, live (notification.created refreshes it), opens the notifications page. */
export function NotificationBell({ active }: { active: boolean }) {
  const unread = useUnreadCount().data ?? 0;
  const label = unread ? `Notifications, ${unread} unread` : "Notifications";
  return (
    <a
      href="/notifications"
      onClick={linkHandler("/notifications")}
      className={`btn-icon bell${active ? " active" : ""}`}
      aria-label={label}
      title={label}
      data-testid="bell"
      aria-current={active ? "page" : undefined}
    >
      <span aria-hidden="true">🔔</span>
      {unread > 0 && (
        <span className="bell-count" data-testid="bell-count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </a>
  );
}
