import { useState } from "react";
import type { Notification } from "../lib/api/types";
import { t } from "../lib/i18n/i18n";
import { navigate } from "../lib/router/router";
import { timeAgo } from "../lib/ui/bits";
import { Empty, ErrorBox, errorText, Loading } from "../lib/ui/states";
import { notificationText } from "./notification-text";
import { useMarkRead, useNotifications, useUnreadCount } from "./notifications.queries";

/** The caller's notifications, newest first: open one (marks it read), mark one or all read, show unread only. */
export function NotificationsPage() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useNotifications(unreadOnly);
  const unread = useUnreadCount().data ?? 0;
  const mark = useMarkRead();
  const items = list.data?.pages.flatMap((p) => p.data) ?? [];

  const open = (n: Notification) => {
    if (!n.read_at) mark.mutate({ ids: [n.id] });
    if (n.ticket) navigate(`/tickets/${n.ticket.number}`);
  };

  return (
    <section className="page notifications-page" aria-labelledby="notifications-title">
      <header className="page-head">
        <h1 id="notifications-title">{t("notifications.title")}</h1>
        <label className="check">
          <input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)} />{" "}
          {t("notifications.unreadOnly")}
        </label>
        <button
          type="button"
          className="btn btn-small"
          disabled={!unread || mark.isPending}
          onClick={() => mark.mutate({ all: true })}
        >
          {t("notifications.markAllRead")}
        </button>
      </header>
      {mark.isError && <div className="form-error">{errorText(mark.error)}</div>}
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : items.length === 0 ? (
        <Empty title={unreadOnly ? t("notifications.nothingUnread") : t("notifications.noneYet")}>
          {t("notifications.emptyBody")}
        </Empty>
      ) : (
        <ul className="notification-list">
          {items.map((n) => (
            <li key={n.id} className={n.read_at ? "read" : "unread"} data-notification={n.type}>
              <button type="button" className="notification-open" onClick={() => open(n)}>
                {!n.read_at && <span className="sr-only">{t("notifications.unreadPrefix")}</span>}
                <span className="notification-text">{notificationText(n)}</span>
                {typeof n.data.excerpt === "string" && n.data.excerpt && (
                  <span className="notification-excerpt muted small">{n.data.excerpt}</span>
                )}
                <span className="muted small">{timeAgo(n.created_at)}</span>
              </button>
              {!n.read_at && (
                <button
                  type="button"
                  className="btn btn-small"
                  aria-label={t("notifications.markReadLabel", { text: notificationText(n) })}
                  onClick={() => mark.mutate({ ids: [n.id] })}
                >
                  {t("notifications.markRead")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="btn btn-small"
          disabled={list.isFetchingNextPage}
          onClick={() => list.fetchNextPage()}
        >
          {t("common.loadMore")}
        </button>
      )}
    </section>
  );
}
