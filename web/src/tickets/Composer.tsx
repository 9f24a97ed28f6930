import { useMutation, useQueryClient } from "@tanstack/react-query";
import { forwardRef, type ReactNode, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from "react";
import { api } from "../lib/api/client";
import { chatTypingOn, typingOn } from "../lib/realtime/presence";
import { useSavedReplies } from "../lib/resources/saved-replies";
import { useAuth, useMe } from "../lib/api/session";
import {
  type Attachment,
  type Message,
  type SavedReply,
  STATUSES,
  type Ticket,
  type TicketStatus,
} from "../lib/api/types";
import { Avatar } from "../lib/ui/bits";
import { FormError } from "../lib/ui/form";
import { useDismiss } from "../lib/ui/layers";
import { errorText } from "../lib/ui/states";
import { MacroMenu } from "./MacroMenu";
import { leftoverPlaceholders, type PlaceholderContext, renderPlaceholders } from "./placeholders";
import { replyCollision } from "./reply-collision";
import { htmlToText, textToHtml } from "../lib/text";
import { useMembers } from "../lib/resources/members";
import type { Member } from "../lib/api/types";
import { MENTION_TOKEN, withMentions } from "./mentions";
import { ComposerAi } from "../ai/ComposerAi";
import { useAiOn } from "../ai/ai.queries";
import { RecipientsField } from "./RecipientsField";
import { ticketKeys, useSenders } from "./tickets.queries";
import { relativeTime, t } from "../lib/i18n/i18n";
import { tNodes } from "../lib/i18n/nodes";
import { PaperclipIcon } from "../lib/ui/icons";

type Kind = "reply" | "note" | "forward";
const KINDS: Kind[] = ["reply", "note", "forward"];

/** Channels whose replies are mailed to the customer (portal customers are answered by mail too). */
const MAILED_CHANNELS: Ticket["channel"][] = ["email", "portal"];

/** Why replies on this ticket cannot reach the customer by email, or null when they can (or it is a chat). */
function mailProblem(ticket: Ticket, hasSender: boolean | undefined): string | null {
  if (ticket.channel === "chat") return null;
  if (!MAILED_CHANNELS.includes(ticket.channel)) return t("tickets.mailNotEmailed");
  if (!ticket.mailbox_id && hasSender === false) return t("tickets.mailNoMailbox");
  if (!ticket.contact?.email) return t("tickets.mailNoAddress");
  return null;
}

/** The message field's hint: who the text goes to, and how. */
function composerPlaceholder(kind: Kind, ticket: Ticket): string {
  const name = ticket.contact?.name || ticket.contact?.email;
  if (kind === "forward") return t("tickets.forwardPlaceholder");
  if (kind === "note") return t("tickets.notePlaceholder");
  if (ticket.channel === "chat")
    return name ? t("tickets.chatPlaceholder", { name }) : t("tickets.chatPlaceholderVisitor");
  return name ? t("tickets.replyPlaceholder", { name }) : t("tickets.replyPlaceholderCustomer");
}

/** The send button: each status its own whole sentence, so every language words it its way. */
function sendLabel(kind: Kind, after: TicketStatus | ""): string {
  if (kind === "forward") return t("tickets.forwardButton");
  if (!after) return kind === "reply" ? t("tickets.sendReply") : t("tickets.addNote");
  return kind === "reply"
    ? t("tickets.sendReplyAndSet", { status: after })
    : t("tickets.addNoteAndSet", { status: after });
}

export type ComposerHandle = { focus(kind: "reply" | "note"): void };
type Upload = { key: string; name: string; attachment?: Attachment; error?: string };

const draftKey = (ticketId: string, kind: string) => `desk.draft.${ticketId}.${kind}`;

/** "/refund" typed at the start of a line or after a space, right before the caret: a saved reply's shortcut. */
const SHORTCUT_TOKEN = /(^|\s)\/([\p{L}\p{N}_\-./]*)$/u;

/**
 * Reply or note. The draft lives in sessionStorage until the API accepts it, so a failed send,
 * a reload or a switch to another ticket loses nothing.
 */
export const Composer = forwardRef<ComposerHandle, { ticket: Ticket; disabled?: boolean }>(function Composer(
  { ticket, disabled },
  ref,
) {
  const client = useQueryClient();
  const saved = useSavedReplies();
  const members = useMembers();
  // Names picked from the @mention suggestions (name → user id), turned into mention markup when sent.
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [kind, setKind] = useState<Kind>("reply");
  const senders = useSenders();
  const hasSender = senders.data ? senders.data.some((s) => s.status !== "disabled") : undefined;
  const problem = mailProblem(ticket, hasSender);
  const mailsReplies = MAILED_CHANNELS.includes(ticket.channel) && problem === null;
  const [copies, setCopies] = useState(false);
  const [cc, setCc] = useState<string[]>([]);
  const [bcc, setBcc] = useState<string[]>([]);
  const [forwardTo, setForwardTo] = useState<string[]>([]);
  const [text, setText] = useState(() => sessionStorage.getItem(draftKey(ticket.id, "reply")) ?? "");
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  // The status "Send and set…" applies; choosing it only selects the action, the button sends.
  const [after, setAfter] = useState<TicketStatus | "">("");
  const [caret, setCaret] = useState(0);
  const [suggestIndex, setSuggestIndex] = useState(0);
  const [suggestDismissed, setSuggestDismissed] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  // Where the caret goes once an insertion (a mention, a saved reply) is in the field. Set in the
  // same commit as the new text, before the browser hands over the next keystroke: a timer after
  // it let fast typing land first and then moved the caret back ("please" became "easepl").
  const caretAfterRender = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = caretAfterRender.current;
    if (at === null || !area.current) return;
    caretAfterRender.current = null;
    area.current.focus();
    area.current.setSelectionRange(at, at);
  });
  const fileInput = useRef<HTMLInputElement>(null);
  const auth = useAuth();
  const me = useMe();
  const aiOn = useAiOn();
  const placeholderContext: PlaceholderContext = {
    ticket,
    contact: ticket.contact,
    agent: auth.user ?? null,
    workspace: me.data?.workspaces.find((w) => w.id === auth.workspaceId) ?? null,
  };
  const leftovers = leftoverPlaceholders(text, placeholderContext);

  // Saved replies whose shortcut starts with the "/word" before the caret.
  const shortcut = SHORTCUT_TOKEN.exec(text.slice(0, caret));
  const suggestions =
    shortcut && !suggestDismissed
      ? (saved.data ?? []).filter((s) => s.shortcut?.toLowerCase().startsWith(shortcut[2].toLowerCase())).slice(0, 6)
      : [];

  /** Inserts a saved reply with its placeholders filled in, replacing a typed "/shortcut" if any. */
  const insertSaved = (reply: SavedReply, replaceToken: boolean) => {
    const body = renderPlaceholders(htmlToText(reply.body_html), placeholderContext);
    if (replaceToken && shortcut) {
      const start = caret - shortcut[0].length + shortcut[1].length;
      const next = text.slice(0, start) + body + text.slice(caret);
      setText(next);
      setCaret(start + body.length);
      caretAfterRender.current = start + body.length;
    } else setText((current) => (current ? `${current}\n\n` : "") + body);
    setSuggestDismissed(false);
    setTimeout(() => area.current?.focus(), 0);
  };
  // In a note, "@name" before the caret offers teammates to mention (they are notified).
  const mention = kind === "note" ? MENTION_TOKEN.exec(text.slice(0, caret)) : null;
  const mentionQuery = mention?.[2].toLowerCase() ?? "";
  const mentionMatches: Member[] =
    mention && !suggestDismissed
      ? (members.data ?? [])
          .filter(
            (m) =>
              m.user.id !== auth.user?.id &&
              (m.user.email.toLowerCase().startsWith(mentionQuery) ||
                m.user.name
                  .toLowerCase()
                  .split(/\s+/)
                  .some((w) => w.startsWith(mentionQuery))),
          )
          .slice(0, 6)
      : [];
  const insertMention = (member: Member) => {
    if (!mention) return;
    const start = caret - mention[0].length + mention[1].length;
    const inserted = `@${member.user.name} `;
    setText(text.slice(0, start) + inserted + text.slice(caret));
    setPicked((p) => ({ ...p, [member.user.name]: member.user.id }));
    setCaret(start + inserted.length);
    caretAfterRender.current = start + inserted.length;
  };
  const items: Array<{ key: string; label: ReactNode; pick: () => void }> = mentionMatches.length
    ? mentionMatches.map((m) => ({
        key: m.user.id,
        label: (
          <>
            <Avatar name={m.user.name} url={m.user.avatar_url} size={20} />
            <span className="mention-name">@{m.user.name}</span> <span className="muted small">{m.user.email}</span>
          </>
        ),
        pick: () => insertMention(m),
      }))
    : suggestions.map((s) => ({
        key: s.id,
        label: (
          <>
            <code>/{s.shortcut}</code> {s.title}
          </>
        ),
        pick: () => insertSaved(s, true),
      }));
  useDismiss(() => setSuggestDismissed(true), items.length > 0);
  const collision = replyCollision(ticket);
  const [clash, setClash] = useState<{ at: string; status: TicketStatus | null } | null>(null);

  useImperativeHandle(ref, () => ({
    focus(next) {
      switchKind(next);
      setTimeout(() => area.current?.focus(), 0);
    },
  }));

  useEffect(() => {
    if (text) sessionStorage.setItem(draftKey(ticket.id, kind), text);
    else sessionStorage.removeItem(draftKey(ticket.id, kind));
  }, [text, kind, ticket.id]);

  const switchKind = (next: Kind) => {
    setKind(next);
    setText(sessionStorage.getItem(draftKey(ticket.id, next)) ?? "");
  };

  const attachmentIds = () => uploads.flatMap((u) => (u.attachment ? [u.attachment.id] : []));
  // Cc/Bcc go with an emailed reply or a forward; hidden fields send nothing.
  const copiesOf = () => (copies ? { ...(cc.length ? { cc } : {}), ...(bcc.length ? { bcc } : {}) } : {});
  const send = useMutation({
    mutationFn: (status: TicketStatus | null) =>
      kind === "forward"
        ? api<Message>(`/tickets/${ticket.id}/forward`, {
            body: {
              to: forwardTo,
              ...copiesOf(),
              ...(text.trim() ? { body_html: textToHtml(text) } : {}),
              attachment_ids: attachmentIds(),
            },
          })
        : api<Message>(`/tickets/${ticket.id}/messages`, {
            body: {
              kind,
              body_html: kind === "note" ? withMentions(textToHtml(text), picked) : textToHtml(text),
              attachment_ids: attachmentIds(),
              ...(kind === "reply" && mailsReplies ? copiesOf() : {}),
              ...(status ? { status } : {}),
            },
          }),
    onSuccess: () => {
      setCc([]);
      setBcc([]);
      setCopies(false);
      setForwardTo([]);
      if (kind === "reply") collision.sent();
      sessionStorage.removeItem(draftKey(ticket.id, kind));
      setText("");
      setPicked({});
      setUploads([]);
      setAfter("");
      client.invalidateQueries({ queryKey: ticketKeys.timeline(ticket.id) });
      client.invalidateQueries({ queryKey: ticketKeys.one(String(ticket.number)) });
      client.invalidateQueries({ queryKey: ticketKeys.lists });
      client.invalidateQueries({ queryKey: ticketKeys.counts });
    },
  });

  const upload = async (files: Iterable<File>) => {
    for (const file of files) {
      const key = `${file.name}-${Math.random()}`;
      setUploads((u) => [...u, { key, name: file.name }]);
      const form = new FormData();
      form.append("file", file, file.name);
      try {
        const attachment = await api<Attachment>("/attachments", { form });
        setUploads((u) => u.map((x) => (x.key === key ? { ...x, attachment } : x)));
      } catch (e) {
        setUploads((u) => u.map((x) => (x.key === key ? { ...x, error: errorText(e) } : x)));
      }
    }
  };

  const pending = uploads.some((u) => !u.attachment && !u.error);
  // Text still holding a placeholder is never sent: the agent fills it in or removes it first.
  const canSend =
    !disabled &&
    (kind === "forward" ? forwardTo.length > 0 : text.trim().length > 0) &&
    !pending &&
    !send.isPending &&
    leftovers.length === 0;
  const submit = async (status: TicketStatus | null = after || null, anyway = false) => {
    if (!canSend) return;
    // Someone answered while this reply was being written: say so before it goes out.
    if (kind === "reply" && !anyway) {
      const at = await collision.newerReply().catch(() => null);
      if (at) return setClash({ at, status });
    }
    setClash(null);
    send.mutate(status);
  };

  return (
    <div
      className={`composer composer-${kind}${dragging ? " dragging" : ""}`}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        upload(e.dataTransfer.files);
      }}
    >
      <div className="composer-tabs">
        {/* Only the tabs are in the tab list (the saved-reply picker sits beside it); one tab stop, arrows switch. */}
        <div
          className="composer-tablist"
          role="tablist"
          aria-label={t("tickets.messageKind")}
          onKeyDown={(e) => {
            if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
            e.preventDefault();
            const at = KINDS.indexOf(kind) + (e.key === "ArrowRight" ? 1 : KINDS.length - 1);
            const next = KINDS[at % KINDS.length]!;
            switchKind(next);
            e.currentTarget.querySelector<HTMLElement>(`[data-kind="${next}"]`)?.focus();
          }}
        >
          <button
            type="button"
            role="tab"
            data-kind="reply"
            aria-selected={kind === "reply"}
            tabIndex={kind === "reply" ? 0 : -1}
            className={kind === "reply" ? "active" : ""}
            onClick={() => switchKind("reply")}
          >
            {t("tickets.tabReply")} <kbd>r</kbd>
          </button>
          <button
            type="button"
            role="tab"
            data-kind="note"
            aria-selected={kind === "note"}
            tabIndex={kind === "note" ? 0 : -1}
            className={kind === "note" ? "active" : ""}
            onClick={() => switchKind("note")}
          >
            {t("tickets.tabNote")} <kbd>n</kbd>
          </button>
          <button
            type="button"
            role="tab"
            data-kind="forward"
            aria-selected={kind === "forward"}
            tabIndex={kind === "forward" ? 0 : -1}
            className={kind === "forward" ? "active" : ""}
            onClick={() => switchKind("forward")}
          >
            {t("tickets.tabForward")}
          </button>
        </div>
        {(kind === "forward" || (kind === "reply" && mailsReplies)) && (
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-expanded={copies}
            onClick={() => setCopies((v) => !v)}
          >
            {t("tickets.ccBcc")}
          </button>
        )}
        <div className="grow" />
        {!!saved.data?.length && (
          <select
            aria-label={t("tickets.insertSavedReply")}
            value=""
            onChange={(e) => {
              const reply = saved.data.find((s) => s.id === e.target.value);
              if (reply) insertSaved(reply, false);
            }}
          >
            <option value="">{t("tickets.savedRepliesPick")}</option>
            {saved.data.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
                {s.shortcut ? ` (${s.shortcut})` : ""}
              </option>
            ))}
          </select>
        )}
      </div>
      {kind === "reply" && problem && (
        <p className="notice-warn" role="note" data-testid="composer-mail-notice">
          {problem}
        </p>
      )}
      {kind === "forward" && hasSender === false && (
        <p className="notice-warn" role="note">
          {t("tickets.forwardNoMailbox")}
        </p>
      )}
      {kind === "forward" && (
        <RecipientsField
          label={t("tickets.to")}
          value={forwardTo}
          onChange={setForwardTo}
          exclude={[...cc, ...bcc]}
          disabled={disabled}
        />
      )}
      {copies && (kind === "forward" || (kind === "reply" && mailsReplies)) && (
        <div className="recipients-copies">
          <RecipientsField
            label={t("tickets.cc")}
            value={cc}
            onChange={setCc}
            exclude={[
              ...(kind === "reply" && ticket.contact?.email ? [ticket.contact.email] : []),
              ...forwardTo,
              ...bcc,
            ]}
            disabled={disabled}
          />
          <RecipientsField
            label={t("tickets.bcc")}
            value={bcc}
            onChange={setBcc}
            exclude={[
              ...(kind === "reply" && ticket.contact?.email ? [ticket.contact.email] : []),
              ...forwardTo,
              ...cc,
            ]}
            disabled={disabled}
          />
        </div>
      )}
      {aiOn && kind === "reply" && (
        <ComposerAi ticketId={ticket.id} text={text} setText={setText} area={area} disabled={disabled} />
      )}
      <textarea
        ref={area}
        aria-label={
          kind === "reply"
            ? t("tickets.replyField")
            : kind === "forward"
              ? t("tickets.forwardNoteField")
              : t("tickets.internalNote")
        }
        placeholder={composerPlaceholder(kind, ticket)}
        value={text}
        disabled={disabled}
        rows={4}
        onChange={(e) => {
          setText(e.target.value);
          setCaret(e.target.selectionStart);
          setSuggestDismissed(false);
          setSuggestIndex(0);
          if (kind === "reply") {
            collision.drafting(e.target.value);
            typingOn(ticket.id);
            if (ticket.channel === "chat") chatTypingOn(ticket.id);
          }
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onPaste={(e) => {
          if (e.clipboardData.files.length) {
            e.preventDefault();
            upload(e.clipboardData.files);
          }
        }}
        onKeyDown={(e) => {
          if (items.length > 0 && !e.metaKey && !e.ctrlKey) {
            if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              setSuggestIndex((i) => (i + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length);
              return;
            }
            if (e.key === "Enter" || e.key === "Tab") {
              e.preventDefault();
              items[Math.min(suggestIndex, items.length - 1)]!.pick();
              return;
            }
          }
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
            e.preventDefault();
            submit();
          }
          // An Esc that closed the suggestions was handled already (ui/layers); otherwise leave the field.
          if (e.key === "Escape" && !e.nativeEvent.defaultPrevented) (e.target as HTMLElement).blur();
        }}
        aria-autocomplete="list"
        aria-controls={items.length > 0 ? `saved-suggest-${ticket.id}` : undefined}
      />
      {items.length > 0 && (
        <div
          className="suggest"
          id={`saved-suggest-${ticket.id}`}
          role="listbox"
          aria-label={mentionMatches.length ? t("tickets.mentionTeammate") : t("tickets.savedReplies")}
        >
          {items.map((item, i) => (
            <div
              key={item.key}
              role="option"
              aria-selected={i === Math.min(suggestIndex, items.length - 1)}
              className={i === Math.min(suggestIndex, items.length - 1) ? "active" : ""}
              onMouseDown={(e) => {
                e.preventDefault();
                item.pick();
              }}
            >
              {item.label}
            </div>
          ))}
        </div>
      )}
      {leftovers.length > 0 && (
        <div className="placeholder-warning" role="alert">
          {leftovers.map((l) => (
            <div key={l.token}>
              {tNodes(
                l.reason === "unknown"
                  ? "tickets.placeholderUnknown"
                  : l.reason === "empty"
                    ? "tickets.placeholderEmpty"
                    : "tickets.placeholderNotFilled",
                { token: <code>{l.token}</code> },
              )}
            </div>
          ))}
          <div className="muted small">
            {t("tickets.placeholderFix", { count: leftovers.length })}
            {leftovers.some((l) => l.reason === "not_filled") && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => setText((current) => renderPlaceholders(current, placeholderContext))}
              >
                {t("tickets.fillPlaceholders")}
              </button>
            )}
          </div>
        </div>
      )}
      {uploads.length > 0 && (
        <div className="uploads">
          {uploads.map((u) => (
            <span key={u.key} className={`upload${u.error ? " upload-error" : ""}`} title={u.error}>
              <PaperclipIcon /> {u.name} {u.error ? `— ${u.error}` : u.attachment ? "" : t("tickets.uploading")}
              <button
                type="button"
                className="chip-x"
                aria-label={t("tickets.removeFile", { name: u.name })}
                onClick={() => setUploads((list) => list.filter((x) => x.key !== u.key))}
              >
                ×
              </button>
            </span>
          ))}
        </div>
      )}
      {clash && (
        <div className="collision" role="alert" data-testid="reply-collision">
          <span>
            {relativeTime(clash.at) === t("common.now")
              ? t("tickets.newerReplyJustNow")
              : t("tickets.newerReply", { when: relativeTime(clash.at) })}
          </span>
          <div className="grow" />
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              collision.seen(clash.at);
              setClash(null);
              client.invalidateQueries({ queryKey: ticketKeys.timeline(ticket.id) });
            }}
          >
            {t("tickets.reviewFirst")}
          </button>
          <button type="button" className="btn btn-small btn-primary" onClick={() => submit(clash.status, true)}>
            {t("tickets.sendAnyway")}
          </button>
        </div>
      )}
      {send.isError && <FormError error={send.error} />}
      <div className="composer-actions">
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() => fileInput.current?.click()}
          disabled={disabled}
        >
          {t("tickets.attach")}
        </button>
        <input ref={fileInput} type="file" multiple hidden onChange={(e) => e.target.files && upload(e.target.files)} />
        <span className="muted small">{t("tickets.dropOrPaste")}</span>
        <div className="grow" />
        {/* After the text, not beside the tabs: Tab from the tabs goes straight to the message. */}
        <MacroMenu ticketIds={[ticket.id]} />
        <select
          hidden={kind === "forward"}
          aria-label={t("tickets.sendAndSetStatus")}
          value={after}
          disabled={disabled}
          onChange={(e) => setAfter(e.target.value as TicketStatus | "")}
        >
          <option value="">{t("tickets.keepStatus")}</option>
          {STATUSES.filter((s) => s !== "closed").map((s) => (
            <option key={s} value={s}>
              {t("tickets.sendAndSet", { status: s })}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!canSend}
          onClick={() => submit()}
          title="Ctrl+Enter"
        >
          {send.isPending ? t("tickets.sending") : sendLabel(kind, after)}
        </button>
      </div>
    </div>
  );
});
