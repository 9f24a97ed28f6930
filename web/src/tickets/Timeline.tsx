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
import { formatDateTime, formatNumber, type MessageKey, type MessageValues, t } from "../lib/i18n/i18n";
import { tNodes } from "../lib/i18n/nodes";

/** Fresh signed links for the open ticket: answers the attachment again with a new URL. */
export type RefreshLinks = (attachmentId: string) => Promise<Attachment | undefined>;

const fmt = (v: unknown): string => {
  if (v === null || v === undefined || v === "") return t("tickets.valueNone");
  if (typeof v === "object") return "name" in (v as object) ? String((v as { name: unknown }).name) : JSON.stringify(v);
  return statusLabel(String(v));
};

/** Activity data names people and teams by id; the timeline shows their names. */
type Names = { person(id: unknown): string; team(id: unknown): string };

/** Which SLA deadline was missed, as the SLA clock names it. */
const slaKind = (kind: unknown) =>
  kind === "first_response" ? t("tickets.firstResponse") : kind === "resolution" ? t("tickets.resolution") : fmt(kind);

/** The whole activity line, its actor a placeholder: each language orders who and what its own way. */
function describe(a: Activity, names: Names): [MessageKey, MessageValues] {
  const d = a.data ?? {};
  const change = { from: fmt(d.from), to: fmt(d.to) };
  switch (a.type) {
    case "status_changed":
      return d.reason === "sender_unverified"
        ? ["tickets.activityStatusKept", {}]
        : d.reason === "auto_close"
          ? ["tickets.activityAutoClosed", {}]
          : ["tickets.activityStatusChanged", change];
    case "priority_changed":
      return ["tickets.activityPriorityChanged", change];
    case "severity_changed":
      return ["tickets.activitySeverityChanged", change];
    case "assigned":
      return d.to ? ["tickets.activityAssigned", { name: names.person(d.to) }] : ["tickets.activityUnassigned", {}];
    case "team_changed":
      return d.to ? ["tickets.activityTeamChanged", { name: names.team(d.to) }] : ["tickets.activityTeamRemoved", {}];
    case "tagged":
      return ["tickets.activityTagged", { tag: fmt(d.tag) }];
    case "untagged":
      return ["tickets.activityUntagged", { tag: fmt(d.tag) }];
    case "field_changed":
      return d.key === undefined || d.key === null
        ? ["tickets.activityUnnamedFieldChanged", { value: fmt(d.to) }]
        : ["tickets.activityFieldChanged", { field: String(d.key), value: fmt(d.to) }];
    case "merged":
      return typeof d.into_number === "number"
        ? ["tickets.activityMergedInto", { number: String(d.into_number) }]
        : ["tickets.activityMerged", {}];
    case "sla_breached":
      return ["tickets.activitySlaBreached", { kind: slaKind(d.kind) }];
    case "csat_received":
      return ["tickets.activityRated", { score: fmt(d.score) }];
    default:
      return ["tickets.activityOther", { what: a.type.replace(/_/g, " ") }];
  }
}

/** The delivery outcome of an outbound reply; a reply that only reached the outbox never reads as plain "sent". */
function DeliveryStatus({ m }: { m: Message }) {
  if (m.delivery_status === "none") return null;
  if (m.delivery_status === "sent" && m.delivery_via === "outbox") {
    return (
      <span className="delivery delivery-outbox" title={t("tickets.outboxExplained")}>
        {t("tickets.outboxOnly")}
      </span>
    );
  }
  return (
    <span className={`delivery delivery-${m.delivery_status}`} title={m.delivery_error}>
      {t("tickets.deliveryStatus", { status: m.delivery_status })}
    </span>
  );
}

function MessageItem({ m, refresh }: { m: Message; refresh: RefreshLinks }) {
  const who =
    m.author.user?.name ??
    (m.author.contact || m.from_email
      ? personName(m.author.contact?.name || m.from_name, m.author.contact?.email ?? m.from_email)
      : t("tickets.authorType", { type: m.author.type }));
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
          <span className="tag-forward">{t("tickets.forwardedTo", { recipients: m.to.join(", ") })}</span>
        ) : (
          m.kind === "note" && <span className="tag-note">{t("tickets.internalNote")}</span>
        )}
        {m.auth_failed && (
          <span className="tag-warn" title={t("tickets.senderFailedDmarc")}>
            {t("tickets.unverifiedSender")}
          </span>
        )}
        <div className="grow" />
        <DeliveryStatus m={m} />
        <time className="muted small" dateTime={m.created_at} title={formatDateTime(m.created_at, FULL_TIME)}>
          {timeAgo(m.created_at)}
        </time>
      </header>
      {m.direction === "outbound" && (m.cc.length > 0 || m.bcc.length > 0) && (
        <div className="msg-recipients muted small">
          {m.cc.length > 0 && <span>{t("tickets.ccList", { recipients: m.cc.join(", ") })}</span>}
          {m.bcc.length > 0 && <span>{t("tickets.bccList", { recipients: m.bcc.join(", ") })}</span>}
        </div>
      )}
      {m.forward && !m.body_html && <p className="muted small">{t("tickets.forwardedWithoutNote")}</p>}
      {body.blocked > 0 && (
        <div className="remote-images" data-testid="remote-images">
          <span className="small">{t("tickets.remoteImagesBlocked", { count: body.blocked })}</span>
          <button type="button" className="btn btn-small" onClick={() => setLoadRemote(true)}>
            {t("tickets.loadImages")}
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
              {t("tickets.alwaysLoadFrom", { sender })}
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
        {open ? t("tickets.hideQuoted") : t("tickets.showQuoted")}
      </button>
      {open && failed && <p className="muted small">{t("tickets.quotedFailed")}</p>}
      {/* Shown as text, never as HTML: the history may hold anything the sender wrote. */}
      {open && full !== null && <pre className="quoted-full">{typeof full === "string" ? full : String(full)}</pre>}
    </div>
  );
}

/** A file of a message: images preview inline, PDFs and the rest open in a new tab; links stay fresh. */
function AttachmentLink({ a, refresh }: { a: Attachment; refresh: RefreshLinks }) {
  const [failed, setFailed] = useState<string | null>(null);
  const preview = PREVIEW_IMAGE_TYPES.includes(a.content_type) && failed !== a.url;
  const size = t("tickets.fileSize", { size: formatNumber(Math.ceil(a.size_bytes / 1024)) });
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

/** Who made a change: a member, an automation, the AI, the customer, or Desk itself. */
function actorName(a: Activity): string {
  if (a.actor?.user?.name) return a.actor.user.name;
  if (a.actor?.automation) return t("tickets.actorAutomation", { name: a.actor.automation.name });
  if (a.actor_type === "ai") return t("tickets.actorAi");
  if (a.actor_type === "contact") return t("tickets.actorCustomer");
  return "Desk";
}

/** The activity as one sentence, its actor set apart. */
function activityLine(a: Activity, names: Names) {
  const [key, values] = describe(a, names);
  return tNodes(key, { actor: <span>{actorName(a)}</span> }, values);
}

// The browser's full date and time (as toLocaleString wrote it), in the app's language.
const FULL_TIME: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
};

export function Timeline({ items, refresh }: { items: TimelineItem[]; refresh: RefreshLinks }) {
  const members = useMembers();
  const teams = useTeams();
  const names: Names = {
    // A user object (older activities) carries its name; an id is looked up among the members.
    person: (v) =>
      typeof v === "string"
        ? members.data
          ? (members.data.find((m) => m.user.id === v)?.user.name ?? t("tickets.formerMember"))
          : "…"
        : fmt(v),
    team: (v) =>
      typeof v === "string" ? (teams.data?.find((team) => team.id === v)?.name ?? t("tickets.aTeam")) : fmt(v),
  };
  return (
    <div className="timeline">
      {items.map((item) =>
        item.kind === "message" ? (
          <MessageItem key={item.message.id} m={item.message} refresh={refresh} />
        ) : (
          <div key={item.activity.id} className="activity muted small">
            {activityLine(item.activity, names)} · {timeAgo(item.at)}
          </div>
        ),
      )}
    </div>
  );
}
