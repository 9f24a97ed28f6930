import { useEffect, useRef, useState } from "react";
import type { Ticket } from "../lib/api/types";
import { formatDateTime, t } from "../lib/i18n/i18n";
import { linkHandler } from "../lib/router/router";
import { Avatar, PriorityMark, StatusPill, TagChip, timeAgo } from "../lib/ui/bits";
import { SlaMark } from "../tickets/SlaClock";
import { SnoozedMark } from "../tickets/SnoozedMark";
import { ChatBadge } from "../tickets/ChatTyping";
import { personName } from "../lib/people";
import { isUnread, useTicketReads } from "./reads";

const ROW = 52;
const OVERSCAN = 12;

/**
 * The ticket rows, windowed: only the rows in view (plus a margin) are in the DOM, so ten
 * thousand loaded tickets scroll like fifty. Asks for the next page when the end comes near.
 */
export function TicketList(props: {
  tickets: Ticket[];
  cursor: number;
  selected: Set<string>;
  onToggle: (id: string, range: boolean) => void;
  onCursor: (index: number) => void;
  onNearEnd: () => void;
  hasMore: boolean;
  loadingMore: boolean;
}) {
  const { tickets, cursor, selected } = props;
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 800 });

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => setView({ top: el.scrollTop, height: el.clientHeight });
    update();
    el.addEventListener("scroll", update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => {
      el.removeEventListener("scroll", update);
      observer.disconnect();
    };
  }, []);

  // Keep the keyboard cursor visible.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const top = cursor * ROW;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW - el.clientHeight;
  }, [cursor]);

  const first = Math.max(0, Math.floor(view.top / ROW) - OVERSCAN);
  const last = Math.min(tickets.length, Math.ceil((view.top + view.height) / ROW) + OVERSCAN);
  const reads = useTicketReads(tickets.slice(first, last).map((t) => t.id));
  const { onNearEnd, hasMore, loadingMore } = props;
  useEffect(() => {
    if (hasMore && !loadingMore && last >= tickets.length - OVERSCAN) onNearEnd();
  }, [last, tickets.length, hasMore, loadingMore, onNearEnd]);

  return (
    <div className="ticket-scroll" ref={box}>
      <div style={{ height: tickets.length * ROW + (hasMore ? 48 : 0), position: "relative" }}>
        {/* The rows are placed absolutely in the sized box above; the list holds only them. */}
        <ul className="ticket-list" aria-label={t("inbox.ticketsList")}>
          {tickets.slice(first, last).map((ticket, i) => {
            const index = first + i;
            const unread = isUnread(reads, ticket);
            return (
              <li
                key={ticket.id}
                className={`ticket-row${index === cursor ? " cursor" : ""}${selected.has(ticket.id) ? " selected" : ""}${unread ? " unread" : ""}`}
                data-unread={unread ? "" : undefined}
                style={{ top: index * ROW, height: ROW }}
                data-number={ticket.number}
                onMouseMove={() => index !== cursor && props.onCursor(index)}
              >
                <input
                  type="checkbox"
                  aria-label={t("inbox.selectTicket", { number: ticket.number })}
                  checked={selected.has(ticket.id)}
                  onChange={() => {}}
                  onClick={(e) => props.onToggle(ticket.id, e.shiftKey)}
                />
                <PriorityMark priority={ticket.priority} />
                <a
                  className="ticket-main"
                  href={`/tickets/${ticket.number}`}
                  onClick={linkHandler(`/tickets/${ticket.number}`)}
                >
                  <span className="ticket-line1">
                    {unread && <span className="visually-hidden">{t("inbox.unreadPrefix")}</span>}
                    <span className="ticket-contact">
                      {ticket.contact ? personName(ticket.contact.name, ticket.contact.email) : t("inbox.noContact")}
                    </span>
                    <span className="ticket-subject">{ticket.subject}</span>
                    {ticket.tags.slice(0, 3).map((tag) => (
                      <TagChip key={tag.id} tag={tag} />
                    ))}
                  </span>
                  <span className="ticket-preview">
                    <span className="muted">#{ticket.number}</span> {ticket.last_message_preview}
                  </span>
                </a>
                {ticket.severity && (
                  <span className={`sev sev-${ticket.severity}`}>{ticket.severity.toUpperCase()}</span>
                )}
                <SnoozedMark until={ticket.snoozed_until} />
                <SlaMark ticket={ticket} />
                {ticket.channel === "chat" && <ChatBadge ticketId={ticket.id} />}
                <StatusPill status={ticket.status} />
                <span
                  className="ticket-assignee"
                  title={ticket.assignee ? ticket.assignee.name : t("inbox.unassigned")}
                >
                  {ticket.assignee ? (
                    <Avatar name={ticket.assignee.name} url={ticket.assignee.avatar_url} size={20} />
                  ) : (
                    <span className="avatar avatar-empty" />
                  )}
                </span>
                <time
                  className="ticket-time muted"
                  dateTime={ticket.last_message_at}
                  title={formatDateTime(ticket.last_message_at)}
                >
                  {timeAgo(ticket.last_message_at)}
                </time>
              </li>
            );
          })}
        </ul>
        {hasMore && (
          <div className="load-more" style={{ top: tickets.length * ROW }}>
            <button type="button" className="btn btn-small" onClick={onNearEnd} disabled={loadingMore}>
              {loadingMore ? t("common.loading") : t("common.loadMore")}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
