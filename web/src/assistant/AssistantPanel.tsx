import { useDismiss } from "../lib/ui/layers";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { api, apiEvents } from "../lib/api/client";
import { Link } from "../lib/router/Link";
import { errorText } from "../lib/ui/states";
import {
  ASK_EVENT,
  type Approval,
  assistantKeys,
  type ConversationDetail,
  type Step,
  type Turn,
  useAssistantOn,
  useConversations,
} from "./assistant.queries";
import { Markdown } from "./markdown";
import { type MessageKey, t } from "../lib/i18n/i18n";
import { tNodes } from "../lib/i18n/nodes";

/** A step's status as shown (keys: translated at render). */
const STATUS_TEXT: Record<Step["status"], MessageKey> = {
  running: "assistant.stepRunning",
  done: "assistant.stepDone",
  error: "assistant.stepFailed",
  awaiting_approval: "assistant.stepAwaitingApproval",
  approved: "assistant.stepApproved",
  denied: "assistant.stepDenied",
  expired: "assistant.stepExpired",
};

const show = (value: unknown) => (value === null || value === undefined || value === "" ? "—" : String(value));

/**
 * The assistant: a side panel on every page (button in the corner, Ctrl/⌘ + J), with the
 * conversation list (rename, delete), the streamed answer, the steps as they run and approval
 * cards that perform a change only when the person approves it.
 */
export function AssistantPanel() {
  const on = useAssistantOn();
  const [open, setOpen] = useState(false);
  const client = useQueryClient();
  const conversations = useConversations(on && open);
  const [current, setCurrent] = useState<string | null>(null);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [approval, setApproval] = useState<Approval | null>(null);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "j") {
        e.preventDefault();
        setOpen((v) => !v);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  // Esc closes the panel as the topmost layer (lib/ui/layers), unless a run is going.
  useDismiss(() => {
    if (!busy) setOpen(false);
  }, open);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  });

  const load = useCallback(async (id: string) => {
    setCurrent(id);
    setError(null);
    const detail = await api<ConversationDetail>(`/assistant/sessions/${id}`);
    setTurns(detail.turns);
    setApproval(detail.approval);
  }, []);

  /** Runs a message or a decision, folding its events into the transcript as they arrive. */
  const run = useCallback(
    async (path: string, body: unknown, userText: string | null) => {
      setBusy(true);
      setError(null);
      const answer: Turn = { id: `live-${Date.now()}`, role: "assistant", text: "", steps: [], created_at: "" };
      setTurns((t) => [
        ...t,
        ...(userText !== null
          ? [{ id: `you-${Date.now()}`, role: "user" as const, text: userText, steps: [], created_at: "" }]
          : []),
        answer,
      ]);
      const update = (change: (turn: Turn) => Turn) =>
        setTurns((t) => t.map((turn) => (turn.id === answer.id ? change(turn) : turn)));
      try {
        await apiEvents(path, body, (event, data) => {
          if (event === "session") setCurrent((data as { id: string }).id);
          else if (event === "text") update((t) => ({ ...t, text: t.text + (data as { text: string }).text }));
          else if (event === "tool") {
            const step = data as Step;
            setTurns((all) => {
              const known = all.some((turn) => turn.steps.some((s) => s.id === step.id));
              return all.map((turn) => {
                if (known) return { ...turn, steps: turn.steps.map((s) => (s.id === step.id ? step : s)) };
                return turn.id === answer.id ? { ...turn, steps: [...turn.steps, step] } : turn;
              });
            });
          } else if (event === "approval") setApproval(data as Approval);
        });
      } catch (e) {
        setError(errorText(e));
      } finally {
        setBusy(false);
        client.invalidateQueries({ queryKey: assistantKeys.sessions });
      }
    },
    [client],
  );

  const send = useCallback(
    async (message: string) => {
      if (!message.trim() || busy) return;
      let id = current;
      if (!id) {
        try {
          id = (await api<{ id: string }>("/assistant/sessions", { body: {} })).id;
        } catch (e) {
          setError(errorText(e));
          return;
        }
        setCurrent(id);
      }
      setText("");
      setApproval(null);
      const context = { path: window.location.pathname };
      await run(`/assistant/sessions/${id}/messages`, { text: message, context }, message);
    },
    [busy, current, run],
  );

  useEffect(() => {
    const onAsk = (e: Event) => {
      setOpen(true);
      setCurrent(null);
      setTurns([]);
      void send((e as CustomEvent<string>).detail);
    };
    window.addEventListener(ASK_EVENT, onAsk);
    return () => window.removeEventListener(ASK_EVENT, onAsk);
  }, [send]);

  const decide = async (decision: "approve" | "deny") => {
    if (!approval?.token) return;
    const token = approval.token;
    setApproval(null);
    await run(`/assistant/actions/${approval.action_id}/decision`, { decision, token }, null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send(text);
  };

  if (!on) return null;
  if (!open)
    return (
      <button
        type="button"
        className="assistant-fab btn btn-primary"
        onClick={() => setOpen(true)}
        title={t("assistant.openTitle")}
        aria-keyshortcuts="Control+J Meta+J"
      >
        {t("assistant.assistant")}
      </button>
    );

  const list = conversations.data?.data ?? [];
  return (
    <aside className="assistant-panel" aria-label={t("assistant.assistant")}>
      <header className="assistant-head">
        <h2>{t("assistant.assistant")}</h2>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => {
            setCurrent(null);
            setTurns([]);
            setApproval(null);
            input.current?.focus();
          }}
        >
          {t("assistant.new")}
        </button>
        <button
          type="button"
          className="btn-icon"
          aria-label={t("assistant.closeAssistant")}
          onClick={() => setOpen(false)}
        >
          ×
        </button>
      </header>
      {list.length > 0 && (
        <details className="assistant-history">
          <summary>{t("assistant.conversationsCount", { count: list.length })}</summary>
          <ul>
            {list.map((c) => (
              <li key={c.id} className={c.id === current ? "active" : ""}>
                {renaming === c.id ? (
                  <form
                    onSubmit={async (e) => {
                      e.preventDefault();
                      const title = String(new FormData(e.currentTarget).get("title") ?? "").trim();
                      if (title)
                        await api(`/assistant/sessions/${c.id}`, { method: "PATCH", body: { title } }).catch((err) =>
                          setError(errorText(err)),
                        );
                      setRenaming(null);
                      client.invalidateQueries({ queryKey: assistantKeys.sessions });
                    }}
                  >
                    <label className="visually-hidden" htmlFor={`rename-${c.id}`}>
                      {t("assistant.conversationTitle")}
                    </label>
                    <input id={`rename-${c.id}`} name="title" defaultValue={c.title} maxLength={200} />
                    <button type="submit" className="btn btn-small">
                      {t("assistant.save")}
                    </button>
                  </form>
                ) : (
                  <>
                    <button type="button" className="assistant-link" onClick={() => void load(c.id)}>
                      {c.title}
                    </button>
                    <button
                      type="button"
                      className="btn-icon"
                      aria-label={t("assistant.renameConversation", { title: c.title })}
                      onClick={() => setRenaming(c.id)}
                    >
                      ✎
                    </button>
                    <button
                      type="button"
                      className="btn-icon"
                      aria-label={t("assistant.deleteConversation", { title: c.title })}
                      onClick={async () => {
                        await api(`/assistant/sessions/${c.id}`, { method: "DELETE" }).catch((err) =>
                          setError(errorText(err)),
                        );
                        if (c.id === current) {
                          setCurrent(null);
                          setTurns([]);
                          setApproval(null);
                        }
                        client.invalidateQueries({ queryKey: assistantKeys.sessions });
                      }}
                    >
                      🗑
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="assistant-log" ref={log} aria-live="polite" aria-busy={busy}>
        {turns.length === 0 && <p className="muted small">{t("assistant.emptyHint")}</p>}
        {turns.map((turn) => (
          <div key={turn.id} className={`assistant-turn assistant-${turn.role}`}>
            {turn.role === "user" ? <p>{turn.text}</p> : <Markdown text={turn.text} />}
            {turn.steps.length > 0 && (
              <ol className="assistant-steps" aria-label={t("assistant.steps")}>
                {turn.steps.map((step) => (
                  <li key={step.id} className={`step step-${step.status}`} data-status={step.status}>
                    <span>{step.label}</span> <span className="muted small">· {t(STATUS_TEXT[step.status])}</span>
                    {step.summary && <div className="small">{step.summary}</div>}
                    {step.refs && step.refs.length > 0 && (
                      <div className="small step-refs">
                        {step.refs.slice(0, 5).map((r) =>
                          r.kind === "ticket" && r.number ? (
                            <Link key={r.id} to={`/tickets/${r.number}`}>
                              {r.label}
                            </Link>
                          ) : (
                            <span key={r.id}>{r.label}</span>
                          ),
                        )}
                      </div>
                    )}
                  </li>
                ))}
              </ol>
            )}
          </div>
        ))}
        {approval?.token && (
          <section className="approval-card" aria-label={t("assistant.approval")}>
            <h3>{approval.preview.title}</h3>
            <p>{approval.preview.summary}</p>
            {approval.preview.total !== undefined && (
              <p className="small">
                {tNodes(
                  approval.preview.total > approval.preview.targets.length
                    ? "assistant.approvalScopeListed"
                    : "assistant.approvalScope",
                  { applies: <strong>{t("assistant.appliesTo", { count: approval.preview.total })}</strong> },
                  { listed: approval.preview.targets.length },
                )}
              </p>
            )}
            {approval.preview.changes.length > 0 && (
              <table className="approval-changes">
                <caption className="visually-hidden">{t("assistant.changes")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("assistant.field")}</th>
                    <th scope="col">{t("assistant.from")}</th>
                    <th scope="col">{t("assistant.to")}</th>
                  </tr>
                </thead>
                <tbody>
                  {approval.preview.changes.map((c) => (
                    <tr key={`${c.field}:${String(c.from)}:${String(c.to)}`}>
                      <td>{c.label ?? c.field}</td>
                      <td>{c.from_text ?? show(c.from)}</td>
                      <td>{c.to_text ?? show(c.to)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {approval.preview.targets.length > 0 && (
              <ul className="small approval-targets" aria-label={t("assistant.tickets")}>
                {approval.preview.targets.map((t) => (
                  <li key={t.id}>{t.number ? <Link to={`/tickets/${t.number}`}>{t.label}</Link> : t.label}</li>
                ))}
              </ul>
            )}
            {approval.preview.body && (
              <blockquote className="approval-body">
                {approval.preview.external && <strong className="small">{t("assistant.sentToCustomer")}</strong>}
                <Markdown text={approval.preview.body} />
              </blockquote>
            )}
            <div className="actions">
              <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void decide("approve")}>
                {t("assistant.approve")}
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => void decide("deny")}>
                {t("assistant.deny")}
              </button>
            </div>
          </section>
        )}
        {approval && !approval.token && (
          <p className="muted small">{t("assistant.approvalElsewhere", { title: approval.preview.title })}</p>
        )}
        {error && (
          <div className="form-error small" role="alert">
            {error}
          </div>
        )}
      </div>
      <form className="assistant-input" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="assistant-text">
          {t("assistant.messageLabel")}
        </label>
        <textarea
          id="assistant-text"
          ref={input}
          value={text}
          maxLength={8000}
          rows={2}
          placeholder={t("assistant.askPlaceholder")}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              void send(text);
            }
          }}
        />
        <button type="submit" className="btn btn-primary" disabled={busy || !text.trim()}>
          {busy ? t("assistant.working") : t("assistant.send")}
        </button>
      </form>
    </aside>
  );
}
