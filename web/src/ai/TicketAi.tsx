import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, apiStream } from "../lib/api/client";
import type { AiAnswer, AiSummary, AiTriage, Ticket } from "../lib/api/types";
import { useTeams } from "../lib/resources/teams";
import { statusLabel } from "../lib/ui/bits";
import { errorText } from "../lib/ui/states";
import { relativeTime } from "../lib/words";
import { ticketKeys } from "../tickets/tickets.queries";

type Suggestion = { value: string | string[] | boolean; probability: number | null };
type Decision = { value: string | boolean | number | null; applied: boolean };
type Decisions = { model: string; decided_at: string; fields: Record<string, Decision> };

const SUGGESTION_LABEL: Record<string, string> = {
  priority: "Priority",
  severity: "Severity",
  labels: "Labels",
  team: "Team",
  spam: "Spam",
};

/** What accepting a suggestion sends as the ticket's PATCH (which also removes the suggestion). */
function acceptPatch(field: string, value: Suggestion["value"]): Record<string, unknown> {
  if (field === "labels") return { add_tags: Array.isArray(value) ? value : [String(value)] };
  if (field === "team") return { team_id: value };
  if (field === "spam") return { spam: true };
  return { [field]: value };
}

/**
 * The ticket's AI panel: the stored summary (and a button to refresh it), a question box, triage
 * with its decisions, and suggestion chips to accept (a PATCH of that field) or dismiss.
 */
export function TicketAi({ ticket, readOnly }: { ticket: Ticket; readOnly: boolean }) {
  const client = useQueryClient();
  const teams = useTeams();
  const refresh = (updated?: Ticket) => {
    if (updated) client.setQueryData(ticketKeys.one(String(updated.number)), updated);
    client.invalidateQueries({ queryKey: ticketKeys.one(String(ticket.number)) });
    client.invalidateQueries({ queryKey: ticketKeys.timeline(ticket.id) });
    client.invalidateQueries({ queryKey: ticketKeys.lists });
  };
  const summarize = useMutation({
    mutationFn: () => api<AiSummary>(`/tickets/${ticket.id}/ai/summary`, { method: "POST" }),
    onSuccess: () => refresh(),
  });
  const triage = useMutation({
    mutationFn: () => api<AiTriage>(`/tickets/${ticket.id}/ai/triage`, { body: {} }),
    onSuccess: () => refresh(),
  });
  const accept = useMutation({
    mutationFn: (patch: Record<string, unknown>) =>
      api<Ticket>(`/tickets/${ticket.id}`, { method: "PATCH", body: patch }),
    onSuccess: (updated) => refresh(updated),
  });
  const dismiss = useMutation({
    mutationFn: (field: string) => api<null>(`/tickets/${ticket.id}/ai/suggestions/${field}`, { method: "DELETE" }),
    onSuccess: () => refresh(),
  });
  const [question, setQuestion] = useState("");
  const [answer, setAnswer] = useState("");
  const [asking, setAsking] = useState(false);
  const [askError, setAskError] = useState<string | null>(null);

  const ask = async (e: FormEvent) => {
    e.preventDefault();
    if (!question.trim() || asking) return;
    setAsking(true);
    setAskError(null);
    setAnswer("");
    try {
      let streamed = "";
      const done = await apiStream<AiAnswer>(`/tickets/${ticket.id}/ai/ask`, { question }, (piece) => {
        streamed += piece;
        setAnswer(streamed);
      });
      setAnswer(streamed || (new DOMParser().parseFromString(done.answer_html, "text/html").body.textContent ?? ""));
    } catch (error) {
      setAskError(errorText(error));
    } finally {
      setAsking(false);
    }
  };

  const summary = ticket.custom.ai_summary as AiSummary | undefined;
  const suggestions = (ticket.custom.ai_suggestions ?? {}) as Record<string, Suggestion>;
  const decisions = ticket.custom.ai_decisions as Decisions | undefined;
  const show = (field: string, value: Suggestion["value"]) => {
    if (field === "team") return teams.data?.find((t) => t.id === value)?.name ?? "a team";
    if (field === "spam") return "Mark as spam";
    if (Array.isArray(value)) return value.join(", ");
    return field === "severity" ? String(value).toUpperCase() : statusLabel(String(value));
  };

  return (
    <section className="ai-panel" aria-label="AI">
      <h3>AI summary</h3>
      {summary ? (
        <div className="ai-summary">
          <p>{summary.summary}</p>
          {summary.key_points.length > 0 && (
            <ul>
              {summary.key_points.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
          <div className="muted small">
            Sentiment: {summary.sentiment} · updated {relativeTime(summary.updated_at)}
          </div>
        </div>
      ) : (
        <div className="muted small">No summary yet.</div>
      )}
      <button type="button" className="btn btn-small" disabled={summarize.isPending} onClick={() => summarize.mutate()}>
        {summarize.isPending ? "Summarizing…" : summary ? "Refresh summary" : "Summarize"}
      </button>
      {summarize.isError && <div className="form-error small">{errorText(summarize.error)}</div>}

      <form className="ai-ask" onSubmit={ask}>
        <label className="side-label" htmlFor={`ai-ask-${ticket.id}`}>
          Ask AI about this ticket
        </label>
        <div className="ai-ask-row">
          <input
            id={`ai-ask-${ticket.id}`}
            value={question}
            maxLength={2000}
            placeholder="What has been tried so far?"
            onChange={(e) => setQuestion(e.target.value)}
          />
          <button type="submit" className="btn btn-small" disabled={asking || !question.trim()}>
            Ask
          </button>
        </div>
        {(answer || asking) && (
          <div className="ai-answer" aria-live="polite">
            {answer || "Thinking…"}
          </div>
        )}
        {askError && <div className="form-error small">{askError}</div>}
      </form>

      {!readOnly && (
        <>
          <h3>Triage</h3>
          <button type="button" className="btn btn-small" disabled={triage.isPending} onClick={() => triage.mutate()}>
            {triage.isPending ? "Triaging…" : decisions ? "Triage again" : "Triage with AI"}
          </button>
          {triage.isError && <div className="form-error small">{errorText(triage.error)}</div>}
          {decisions && (
            <div className="muted small ai-decided">
              Applied by {decisions.model}:{" "}
              {Object.entries(decisions.fields)
                .filter(([, d]) => d.applied)
                .map(([key, d]) => `${key.replace("_", " ")} ${String(d.value)}`)
                .join(", ") || "nothing"}
            </div>
          )}
          {Object.keys(suggestions).length > 0 && (
            <ul className="ai-suggestions" aria-label="AI suggestions">
              {Object.entries(suggestions).map(([field, s]) => (
                <li key={field} className="ai-suggestion">
                  <span>
                    {SUGGESTION_LABEL[field] ?? field}: <strong>{show(field, s.value)}</strong>
                    {s.probability !== null && (
                      <span className="muted small"> ({Math.round(s.probability * 100)}%)</span>
                    )}
                  </span>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Accept ${SUGGESTION_LABEL[field] ?? field} suggestion`}
                    disabled={accept.isPending}
                    onClick={() => accept.mutate(acceptPatch(field, s.value))}
                  >
                    Accept
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    aria-label={`Dismiss ${SUGGESTION_LABEL[field] ?? field} suggestion`}
                    disabled={dismiss.isPending}
                    onClick={() => dismiss.mutate(field)}
                  >
                    Dismiss
                  </button>
                </li>
              ))}
            </ul>
          )}
          {(accept.isError || dismiss.isError) && (
            <div className="form-error small">{errorText(accept.error ?? dismiss.error)}</div>
          )}
        </>
      )}
    </section>
  );
}
