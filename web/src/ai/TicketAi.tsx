import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, apiStream } from "../lib/api/client";
import type { AiAnswer, AiSummary, AiTriage, Ticket } from "../lib/api/types";
import { useTeams } from "../lib/resources/teams";
import { statusLabel } from "../lib/ui/bits";
import { errorText } from "../lib/ui/states";
import { formatNumber, relativeTime, t } from "../lib/i18n/i18n";
import { ticketKeys } from "../tickets/tickets.queries";

type Suggestion = { value: string | string[] | boolean; probability: number | null };
type Decision = { value: string | boolean | number | null; applied: boolean };
type Decisions = { model: string; decided_at: string; fields: Record<string, Decision> };

/** A suggested field's name (a field the catalogue does not name shows as it comes). */
const suggestionLabel = (field: string) => t("ai.suggestionField", { field });

/** What triage applied, field by field, or "nothing". */
function appliedText(decisions: Decisions): string {
  const changes = Object.entries(decisions.fields)
    .filter(([, d]) => d.applied)
    .map(([key, d]) => t("ai.decisionValue", { field: t("ai.decisionField", { field: key }), value: String(d.value) }));
  return changes.length
    ? t("ai.appliedBy", { model: decisions.model, changes: changes.join(", ") })
    : t("ai.appliedNothing", { model: decisions.model });
}

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
    if (field === "team") return teams.data?.find((team) => team.id === value)?.name ?? t("ai.aTeam");
    if (field === "spam") return t("ai.markAsSpam");
    if (Array.isArray(value)) return value.join(", ");
    return field === "severity" ? String(value).toUpperCase() : statusLabel(String(value));
  };

  return (
    <section className="ai-panel" aria-label={t("ai.panel")}>
      <h3>{t("ai.summaryHeading")}</h3>
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
            {t("ai.summaryMeta", {
              sentiment: t("ai.sentiment", { sentiment: summary.sentiment ?? "" }),
              when: relativeTime(summary.updated_at),
            })}
          </div>
        </div>
      ) : (
        <div className="muted small">{t("ai.noSummary")}</div>
      )}
      <button type="button" className="btn btn-small" disabled={summarize.isPending} onClick={() => summarize.mutate()}>
        {summarize.isPending ? t("ai.summarizing") : summary ? t("ai.refreshSummary") : t("ai.summarize")}
      </button>
      {summarize.isError && <div className="form-error small">{errorText(summarize.error)}</div>}

      <form className="ai-ask" onSubmit={ask}>
        <label className="side-label" htmlFor={`ai-ask-${ticket.id}`}>
          {t("ai.askLabel")}
        </label>
        <div className="ai-ask-row">
          <input
            id={`ai-ask-${ticket.id}`}
            value={question}
            maxLength={2000}
            placeholder={t("ai.askPlaceholder")}
            onChange={(e) => setQuestion(e.target.value)}
          />
          <button type="submit" className="btn btn-small" disabled={asking || !question.trim()}>
            {t("ai.ask")}
          </button>
        </div>
        {(answer || asking) && (
          <div className="ai-answer" aria-live="polite">
            {answer || t("ai.thinking")}
          </div>
        )}
        {askError && <div className="form-error small">{askError}</div>}
      </form>

      {!readOnly && (
        <>
          <h3>{t("ai.triage")}</h3>
          <button type="button" className="btn btn-small" disabled={triage.isPending} onClick={() => triage.mutate()}>
            {triage.isPending ? t("ai.triaging") : decisions ? t("ai.triageAgain") : t("ai.triageWithAi")}
          </button>
          {triage.isError && <div className="form-error small">{errorText(triage.error)}</div>}
          {decisions && <div className="muted small ai-decided">{appliedText(decisions)}</div>}
          {Object.keys(suggestions).length > 0 && (
            <ul className="ai-suggestions" aria-label={t("ai.suggestions")}>
              {Object.entries(suggestions).map(([field, s]) => (
                <li key={field} className="ai-suggestion">
                  <span>
                    {t("ai.suggestionLabel", { field: suggestionLabel(field) })} <strong>{show(field, s.value)}</strong>
                    {s.probability !== null && (
                      <span className="muted small">
                        {" "}
                        ({formatNumber(s.probability, { style: "percent", maximumFractionDigits: 0 })})
                      </span>
                    )}
                  </span>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={t("ai.acceptSuggestion", { field: suggestionLabel(field) })}
                    disabled={accept.isPending}
                    onClick={() => accept.mutate(acceptPatch(field, s.value))}
                  >
                    {t("ai.accept")}
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    aria-label={t("ai.dismissSuggestion", { field: suggestionLabel(field) })}
                    disabled={dismiss.isPending}
                    onClick={() => dismiss.mutate(field)}
                  >
                    {t("ai.dismiss")}
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
