import { Link } from "../lib/router/Link";
import { useUnreadCount } from "./notifications.queries";

/** The header's bell: unread count, live (notification.created refreshes it), opens the notifications page. */
export function NotificationBell({ active }: { active: boolean }) {
  const unread = useUnreadCount().data ?? 0;
  const label = unread ? `Notifications, ${unread} unread` : "Notifications";
  return (
    <Link
      to="/notifications"
      className={`btn-icon bell${active ? " active" : ""}`}
      aria-label={label}
      title={label}
      data-testid="bell"
    >
      <span aria-hidden="true">🔔</span>
      {unread > 0 && (
        <span className="bell-count" data-testid="bell-count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </Link>
  );
}
