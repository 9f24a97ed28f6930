import { useMutation, useQueryClient } from "@tanstack/react-query";
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from "react";
import { api } from "../api/client";
import { useSavedReplies } from "../api/queries";
import { type Attachment, type Message, STATUSES, type Ticket, type TicketStatus } from "../api/types";
import { statusLabel } from "../ui/bits";
import { FormError } from "../ui/form";
import { errorText } from "../ui/states";
import { htmlToText, textToHtml } from "./text";

export type ComposerHandle = { focus(kind: "reply" | "note"): void };
type Upload = { key: string; name: string; attachment?: Attachment; error?: string };

const draftKey = (ticketId: string, kind: string) => `desk.draft.${ticketId}.${kind}`;

/**
 * Reply or note. The draft lives in sessionStorage until the API accepts it, so a failed send,
 * a reload or a switch to another ticket loses nothing.
 */
export const Composer = forwardRef<ComposerHandle, { ticket: Ticket; disabled?: boolean }>(function Composer({ ticket, disabled }, ref) {
  const client = useQueryClient();
  const saved = useSavedReplies();
  const [kind, setKind] = useState<"reply" | "note">("reply");
  const [text, setText] = useState(() => sessionStorage.getItem(draftKey(ticket.id, "reply")) ?? "");
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

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

  const switchKind = (next: "reply" | "note") => {
    setKind(next);
    setText(sessionStorage.getItem(draftKey(ticket.id, next)) ?? "");
  };

  const send = useMutation({
    mutationFn: (status: TicketStatus | null) =>
      api<Message>(`/tickets/${ticket.id}/messages`, {
        body: {
          kind,
          body_html: textToHtml(text),
          attachment_ids: uploads.flatMap((u) => (u.attachment ? [u.attachment.id] : [])),
          ...(status ? { status } : {}),
        },
      }),
    onSuccess: () => {
      sessionStorage.removeItem(draftKey(ticket.id, kind));
      setText("");
      setUploads([]);
      client.invalidateQueries({ queryKey: ["timeline", ticket.id] });
      client.invalidateQueries({ queryKey: ["ticket", String(ticket.number)] });
      client.invalidateQueries({ queryKey: ["tickets"] });
      client.invalidateQueries({ queryKey: ["counts"] });
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
  const canSend = !disabled && text.trim().length > 0 && !pending && !send.isPending;
  const submit = (status: TicketStatus | null) => canSend && send.mutate(status);

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
        <div className="composer-tablist" role="tablist" aria-label="Message kind" onKeyDown={(e) => {
          if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
          e.preventDefault();
          const next = kind === "reply" ? "note" : "reply";
          switchKind(next);
          e.currentTarget.querySelector<HTMLElement>(`[data-kind="${next}"]`)?.focus();
        }}>
          <button role="tab" data-kind="reply" aria-selected={kind === "reply"} tabIndex={kind === "reply" ? 0 : -1} className={kind === "reply" ? "active" : ""} onClick={() => switchKind("reply")}>Reply <kbd>r</kbd></button>
          <button role="tab" data-kind="note" aria-selected={kind === "note"} tabIndex={kind === "note" ? 0 : -1} className={kind === "note" ? "active" : ""} onClick={() => switchKind("note")}>Note <kbd>n</kbd></button>
        </div>
        <div className="grow" />
        {!!saved.data?.length && (
          <select
            aria-label="Insert saved reply"
            value=""
            onChange={(e) => {
              const reply = saved.data.find((s) => s.id === e.target.value);
              if (reply) setText((t) => (t ? `${t}\n\n` : "") + htmlToText(reply.body_html));
            }}
          >
            <option value="">Saved replies…</option>
            {saved.data.map((s) => <option key={s.id} value={s.id}>{s.title}{s.shortcut ? ` (${s.shortcut})` : ""}</option>)}
          </select>
        )}
      </div>
      <textarea
        ref={area}
        aria-label={kind === "reply" ? "Reply" : "Internal note"}
        placeholder={kind === "reply" ? `Reply to ${ticket.contact?.name || ticket.contact?.email || "the customer"}…` : "Internal note, only your team sees it…"}
        value={text}
        disabled={disabled}
        rows={4}
        onChange={(e) => setText(e.target.value)}
        onPaste={(e) => {
          if (e.clipboardData.files.length) {
            e.preventDefault();
            upload(e.clipboardData.files);
          }
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
            e.preventDefault();
            submit(null);
          }
          if (e.key === "Escape") (e.target as HTMLElement).blur();
        }}
      />
      {uploads.length > 0 && (
        <div className="uploads">
          {uploads.map((u) => (
            <span key={u.key} className={`upload${u.error ? " upload-error" : ""}`} title={u.error}>
              📎 {u.name} {u.error ? `— ${u.error}` : u.attachment ? "" : "(uploading…)"}
              <button className="chip-x" aria-label={`Remove ${u.name}`} onClick={() => setUploads((list) => list.filter((x) => x.key !== u.key))}>×</button>
            </span>
          ))}
        </div>
      )}
      {send.isError && <FormError error={send.error} />}
      <div className="composer-actions">
        <button className="btn btn-ghost btn-small" onClick={() => fileInput.current?.click()} disabled={disabled}>Attach</button>
        <input ref={fileInput} type="file" multiple hidden onChange={(e) => e.target.files && upload(e.target.files)} />
        <span className="muted small">Drop or paste files</span>
        <div className="grow" />
        <select
          aria-label="Send and set status"
          value=""
          disabled={!canSend}
          onChange={(e) => e.target.value && submit(e.target.value as TicketStatus)}
        >
          <option value="">Send and set…</option>
          {STATUSES.filter((s) => s !== "closed").map((s) => <option key={s} value={s}>Send and set {statusLabel(s).toLowerCase()}</option>)}
        </select>
        <button className="btn btn-primary" disabled={!canSend} onClick={() => submit(null)} title="Ctrl+Enter">
          {send.isPending ? "Sending…" : kind === "reply" ? "Send reply" : "Add note"}
        </button>
      </div>
    </div>
  );
});
