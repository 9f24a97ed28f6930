import type { Activity, Message } from "../api/types";
import { Avatar, statusLabel, timeAgo } from "../ui/bits";
import type { TimelineItem } from "./ticket-data";

const fmt = (v: unknown): string => {
  if (v === null || v === undefined || v === "") return "none";
  if (typeof v === "object") return "name" in (v as object) ? String((v as { name: unknown }).name) : JSON.stringify(v);
  return statusLabel(String(v));
};

function describe(a: Activity): string {
  const d = a.data ?? {};
  switch (a.type) {
    case "status_changed":
      return d.reason === "sender_unverified" ? "kept the status: the sender could not be verified" : `changed status from ${fmt(d.from)} to ${fmt(d.to)}`;
    case "priority_changed":
      return `changed priority from ${fmt(d.from)} to ${fmt(d.to)}`;
    case "severity_changed":
      return `changed severity from ${fmt(d.from)} to ${fmt(d.to)}`;
    case "assigned":
      return d.to ? `assigned to ${fmt(d.to)}` : "unassigned the ticket";
    case "team_changed":
      return "changed the team";
    case "tagged":
      return `added label ${fmt(d.tag)}`;
    case "untagged":
      return `removed label ${fmt(d.tag)}`;
    case "field_changed":
      return `set ${String(d.key ?? "a field")} to ${fmt(d.to)}`;
    case "merged":
      return `merged into ${fmt(d.into)}`;
    case "sla_breached":
      return `SLA breached (${fmt(d.kind)})`;
    case "csat_received":
      return `customer rated ${fmt(d.score)}`;
    default:
      return a.type.replace(/_/g, " ");
  }
}

const OUTBOX_EXPLAINED =
  "Not delivered: the server has no outgoing mail relay (DESK_SMTP_URL), so this reply was only written to its outbox folder. The customer has not received it.";

/** The delivery outcome of an outbound reply; a reply that only reached the outbox never reads as plain "sent". */
function DeliveryStatus({ m }: { m: Message }) {
  if (m.delivery_status === "none") return null;
  if (m.delivery_status === "sent" && m.delivery_via === "outbox") {
    return <span className="delivery delivery-outbox" title={OUTBOX_EXPLAINED}>Not delivered: outbox only</span>;
  }
  return <span className={`delivery delivery-${m.delivery_status}`} title={m.delivery_error}>{m.delivery_status}</span>;
}

function MessageItem({ m }: { m: Message }) {
  const who = m.author.user?.name ?? m.author.contact?.name ?? m.from_name ?? m.from_email ?? m.author.type;
  return (
    <article className={`msg msg-${m.kind} msg-${m.direction}`} data-message-id={m.id}>
      <header>
        <Avatar name={who || "?"} url={m.author.user?.avatar_url ?? m.author.contact?.avatar_url} size={26} />
        <strong>{who}</strong>
        {m.kind === "note" && <span className="tag-note">Internal note</span>}
        {m.auth_failed && <span className="tag-warn" title="The sender failed DMARC at the receiving server">Unverified sender</span>}
        <div className="grow" />
        <DeliveryStatus m={m} />
        <time className="muted small" dateTime={m.created_at} title={new Date(m.created_at).toLocaleString()}>{timeAgo(m.created_at)}</time>
      </header>
      {/* body_html is sanitized by the server before storage. */}
      <div className="msg-body" dangerouslySetInnerHTML={{ __html: m.body_html }} />
      {m.attachments?.length > 0 && (
        <div className="uploads">
          {m.attachments.map((a) => (
            <a key={a.id} className="upload" href={a.url} target="_blank" rel="noreferrer">📎 {a.filename} <span className="muted">{Math.ceil(a.size_bytes / 1024)} KB</span></a>
          ))}
        </div>
      )}
    </article>
  );
}

export function Timeline({ items }: { items: TimelineItem[] }) {
  return (
    <div className="timeline">
      {items.map((item) =>
        item.kind === "message" ? (
          <MessageItem key={item.message.id} m={item.message} />
        ) : (
          <div key={item.activity.id} className="activity muted small">
            <span>{item.activity.actor?.user?.name ?? (item.activity.actor_type === "ai" ? "AI" : "Desk")}</span> {describe(item.activity)} · {timeAgo(item.at)}
          </div>
        ),
      )}
    </div>
  );
}
