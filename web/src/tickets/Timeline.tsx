import { useMemo, useState } from "react";
import { api } from "../lib/api/client";
import { useMembers } from "../lib/resources/members";
import { useTeams } from "../lib/resources/teams";
import type { Activity, Attachment, Message } from "../lib/api/types";
import { Avatar, statusLabel, timeAgo } from "../lib/ui/bits";
import { personName } from "../lib/people";
import { openAttachment, PREVIEW_IMAGE_TYPES } from "./attachment-links";
import { allowSender, senderAllowed, trustedOrigins, withoutRemoteImages } from "./remote-images";
import type { TimelineItem } from "./ticket-data";
import { DocumentIcon, PaperclipIcon } from "../lib/ui/icons";

/** Fresh signed links for the open ticket: answers the attachment again with a new URL. */
export type RefreshLinks = (attachmentId: string) => Promise<Attachment | undefined>;

const fmt = (v: unknown): string => {
  if (v === null || v === undefined || v === "") return "none";
  if (typeof v === "object") return "name" in (v as object) ? String((v as { name: unknown }).name) : JSON.stringify(v);
  return statusLabel(String(v));
};

/** Activity data names people and teams by id; the timeline shows their names. */
type Names = { person(id: unknown): string; team(id: unknown): string };

function describe(a: Activity, names: Names): string {
  const d = a.data ?? {};
  switch (a.type) {
    case "status_changed":
      return d.reason === "sender_unverified"
        ? "kept the status: the sender could not be verified"
        : d.reason === "auto_close"
          ? `closed the ticket (solved for the workspace's auto-close period)`
          : `changed status from ${fmt(d.from)} to ${fmt(d.to)}`;
    case "priority_changed":
      return `changed priority from ${fmt(d.from)} to ${fmt(d.to)}`;
    case "severity_changed":
      return `changed severity from ${fmt(d.from)} to ${fmt(d.to)}`;
    case "assigned":
      return d.to ? `assigned to ${names.person(d.to)}` : "unassigned the ticket";
    case "team_changed":
      return d.to ? `moved to team ${names.team(d.to)}` : "removed the team";
    case "tagged":
      return `added label ${fmt(d.tag)}`;
    case "untagged":
      return `removed label ${fmt(d.tag)}`;
    case "field_changed":
      return `set ${String(d.key ?? "a field")} to ${fmt(d.to)}`;
    case "merged":
      return typeof d.into_number === "number" ? `merged into #${d.into_number}` : "merged into another ticket";
    case "sla_breached":
      return `SLA breached (${fmt(d.kind)})`;
    case "csat_received":
      return `rated the support ${fmt(d.score)} out of 5`;
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
    return (
      <span className="delivery delivery-outbox" title={OUTBOX_EXPLAINED}>
        Not delivered: outbox only
      </span>
    );
  }
  return (
    <span className={`delivery delivery-${m.delivery_status}`} title={m.delivery_error}>
      {m.delivery_status}
    </span>
  );
}

function MessageItem({ m, refresh }: { m: Message; refresh: RefreshLinks }) {
  const who =
    m.author.user?.name ??
    (m.author.contact || m.from_email
      ? personName(m.author.contact?.name || m.from_name, m.author.contact?.email ?? m.from_email)
      : m.author.type);
  const sender = (m.from_email || m.author.contact?.email || "").toLowerCase();
  const [loadRemote, setLoadRemote] = useState(() => senderAllowed(sender));
  const body = useMemo(
    () =>
      loadRemote
        ? { html: m.body_html, blocked: 0 }
        : withoutRemoteImages(m.body_html, trustedOrigins(m.attachments?.map((a) => a.url) ?? [])),
    [m.body_html, m.attachments, loadRemote],
  );
  // An image the body already shows (a `cid:` image the server pointed at its file) is not listed again.
  const listed = useMemo(
    () => (m.attachments ?? []).filter((a) => !body.html.includes(`src="${a.url.replace(/&/g, "&amp;")}"`)),
    [m.attachments, body.html],
  );
  return (
    <article
      className={`msg msg-${m.kind} msg-${m.direction}${m.forward ? " msg-forward" : ""}`}
      data-message-id={m.id}
    >
      <header>
        <Avatar name={who} url={m.author.user?.avatar_url ?? m.author.contact?.avatar_url} size={26} />
        <strong>{who}</strong>
        {m.forward ? (
          <span className="tag-forward">Forwarded to {m.to.join(", ")}</span>
        ) : (
          m.kind === "note" && <span className="tag-note">Internal note</span>
        )}
        {m.auth_failed && (
          <span className="tag-warn" title="The sender failed DMARC at the receiving server">
            Unverified sender
          </span>
        )}
        <div className="grow" />
        <DeliveryStatus m={m} />
        <time className="muted small" dateTime={m.created_at} title={new Date(m.created_at).toLocaleString()}>
          {timeAgo(m.created_at)}
        </time>
      </header>
      {m.direction === "outbound" && (m.cc.length > 0 || m.bcc.length > 0) && (
        <div className="msg-recipients muted small">
          {m.cc.length > 0 && <span>Cc: {m.cc.join(", ")}</span>}
          {m.bcc.length > 0 && <span>Bcc: {m.bcc.join(", ")}</span>}
        </div>
      )}
      {m.forward && !m.body_html && <p className="muted small">Forwarded the conversation without a note.</p>}
      {body.blocked > 0 && (
        <div className="remote-images" data-testid="remote-images">
          <span className="small">
            {body.blocked === 1 ? "1 remote image is" : `${body.blocked} remote images are`} blocked: loading them can
            tell the sender you read this.
          </span>
          <button type="button" className="btn btn-small" onClick={() => setLoadRemote(true)}>
            Load images
          </button>
          {sender && (
            <button
              type="button"
              className="btn btn-small btn-ghost"
              onClick={() => {
                allowSender(sender);
                setLoadRemote(true);
              }}
            >
              Always load from {sender}
            </button>
          )}
        </div>
      )}
      {/* body_html is sanitized by the server before storage; remote images are held back above. */}
      <div className="msg-body" dangerouslySetInnerHTML={{ __html: body.html }} />
      {m.has_quoted && <QuotedToggle messageId={m.id} />}
      {listed.length > 0 && (
        <div className="uploads">
          {listed.map((a) => (
            <AttachmentLink key={a.id} a={a} refresh={refresh} />
          ))}
        </div>
      )}
    </article>
  );
}

/** Inbound replies are stored trimmed; the whole body (quoted history included) loads on demand. */
function QuotedToggle({ messageId }: { messageId: string }) {
  const [open, setOpen] = useState(false);
  const [full, setFull] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const toggle = async () => {
    if (!open && full === null) {
      try {
        setFull(await api<string>(`/messages/${messageId}/original?view=text`));
      } catch {
        setFailed(true);
      }
    }
    setOpen(!open);
  };
  return (
    <div className="quoted">
      <button type="button" className="link small" aria-expanded={open} onClick={toggle}>
        {open ? "Hide quoted text" : "Show quoted text"}
      </button>
      {open && failed && <p className="muted small">The full message could not be loaded.</p>}
      {/* Shown as text, never as HTML: the history may hold anything the sender wrote. */}
      {open && full !== null && <pre className="quoted-full">{typeof full === "string" ? full : String(full)}</pre>}
    </div>
  );
}

/** A file of a message: images preview inline, PDFs and the rest open in a new tab; links stay fresh. */
function AttachmentLink({ a, refresh }: { a: Attachment; refresh: RefreshLinks }) {
  const [failed, setFailed] = useState<string | null>(null);
  const preview = PREVIEW_IMAGE_TYPES.includes(a.content_type) && failed !== a.url;
  const size = `${Math.ceil(a.size_bytes / 1024)} KB`;
  return (
    <a
      className={`upload${preview ? " upload-preview" : ""}`}
      href={a.url}
      target="_blank"
      rel="noreferrer"
      data-attachment-id={a.id}
      onClick={(e) => openAttachment(e, a, () => refresh(a.id))}
      title={`${a.filename} (${size})`}
    >
      {preview ? (
        // A failed load is most often an expired link: fresh links are fetched, then it retries once.
        <img
          src={a.url}
          alt={a.filename}
          loading="lazy"
          onError={() => {
            setFailed(a.url);
            void refresh(a.id);
          }}
        />
      ) : (
        <>
          {a.content_type === "application/pdf" ? <DocumentIcon /> : <PaperclipIcon />} {a.filename}{" "}
          <span className="muted">{size}</span>
        </>
      )}
    </a>
  );
}

export function Timeline({ items, refresh }: { items: TimelineItem[]; refresh: RefreshLinks }) {
  const members = useMembers();
  const teams = useTeams();
  const names: Names = {
    // A user object (older activities) carries its name; an id is looked up among the members.
    person: (v) =>
      typeof v === "string"
        ? members.data
          ? (members.data.find((m) => m.user.id === v)?.user.name ?? "a former member")
          : "…"
        : fmt(v),
    team: (v) => (typeof v === "string" ? (teams.data?.find((t) => t.id === v)?.name ?? "a team") : fmt(v)),
  };
  return (
    <div className="timeline">
      {items.map((item) =>
        item.kind === "message" ? (
          <MessageItem key={item.message.id} m={item.message} refresh={refresh} />
        ) : (
          <div key={item.activity.id} className="activity muted small">
            <span>
              {item.activity.actor?.user?.name ??
                (item.activity.actor?.automation
                  ? `Automation “${item.activity.actor.automation.name}”`
                  : item.activity.actor_type === "ai"
                    ? "AI"
                    : item.activity.actor_type === "contact"
                      ? "The customer"
                      : "Desk")}
            </span>{" "}
            {describe(item.activity, names)} · {timeAgo(item.at)}
          </div>
        ),
      )}
    </div>
  );
}
