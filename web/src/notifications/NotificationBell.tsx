import { linkHandler } from "../lib/router/router";
import { t } from "../lib/i18n/i18n";
import { useUnreadCount } from "./notifications.queries";

/** The header's bell: unread count, live (notification.created refreshes it), opens the notifications page. */
export function NotificationBell({ active }: { active: boolean }) {
  const unread = useUnreadCount().data ?? 0;
  const label = unread ? t("notifications.bellUnread", { count: unread }) : t("notifications.title");
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
      {/* An inline SVG: an emoji bell needs a colour-emoji font many Linux desktops lack. */}
      <svg
        aria-hidden="true"
        width="16"
        height="16"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread > 0 && (
        <span className="bell-count" data-testid="bell-count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </a>
  );
}
