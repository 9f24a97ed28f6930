import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/client";
import type { Automation } from "../../lib/api/types";
import { type MessageKey, t } from "../../lib/i18n/i18n";
import type { operations } from "../../lib/api-schema";
import { Link } from "../../lib/router/Link";
import { Modal, statusLabel, timeAgo } from "../../lib/ui/bits";
import { Empty, ErrorBox, Loading } from "../../lib/ui/states";
import { actionLabel, fieldLabel, isHoursField, opLabel } from "./automation-rules";
import { automationsKeys } from "./automations.queries";

type Runs = operations["getAutomationsByIdRuns"]["responses"][200]["content"]["application/json"];
type Run = Runs["data"][number];
type Matched = Run["matched"][number];

/** One condition as it held: "Hours since status changed: 73.5 (more than 72)". */
function why(m: Matched): string {
  const field = fieldLabel(m.field);
  const numbers = { field, actual: Number(m.actual), value: Number(m.value) };
  if (m.op === "breached") return t("workflow.whyBreached", { field });
  if (m.op === "due_within_minutes") return t("workflow.whyDueWithin", numbers);
  if (isHoursField(m.field)) return t(m.op === "gt" ? "workflow.whyHoursMore" : "workflow.whyHoursLess", numbers);
  const value = typeof m.value === "string" ? statusLabel(m.value) : String(m.value);
  return m.actual === null
    ? t("workflow.whyCompared", { field, op: opLabel(m.op), value })
    : t("workflow.whyActual", { field, actual: statusLabel(String(m.actual)) });
}

const RESULTS: Record<Run["notes"][number]["result"], MessageKey> = {
  applied: "workflow.resultApplied",
  skipped: "workflow.resultSkipped",
  noop: "workflow.resultNoop",
};

/** An automation's recent runs: when, on which ticket, why a time rule fired and what each action did. */
export function AutomationRuns({ automation, onClose }: { automation: Automation; onClose: () => void }) {
  const runs = useQuery({
    queryKey: automationsKeys.runs(automation.id),
    queryFn: () => api<Runs>(`/automations/${automation.id}/runs`),
  });
  return (
    <Modal title={t("workflow.runsOf", { name: automation.name })} onClose={onClose} wide>
      {runs.isPending ? (
        <Loading />
      ) : runs.isError ? (
        <ErrorBox error={runs.error} retry={() => runs.refetch()} />
      ) : runs.data.data.length === 0 ? (
        <Empty title={t("workflow.runsEmpty")}>{t("workflow.runsEmptyBody")}</Empty>
      ) : (
        <table className="table" aria-label={t("workflow.runsOf", { name: automation.name })}>
          <thead>
            <tr>
              <th>{t("workflow.columnWhen")}</th>
              <th>{t("workflow.columnTicket")}</th>
              <th>{t("workflow.columnWhy")}</th>
              <th>{t("workflow.columnWhatItDid")}</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.data.map((run) => (
              <tr key={run.id}>
                <td className="small">
                  {timeAgo(run.created_at)}
                  <div className="muted">
                    {run.trigger === "time" ? t("workflow.runTimeRule") : t("workflow.runEvent")}
                  </div>
                </td>
                <td>
                  {run.ticket_number === null ? (
                    <span className="muted small">{t("workflow.runTicketHidden")}</span>
                  ) : (
                    <Link to={`/tickets/${run.ticket_number}`}>#{run.ticket_number}</Link>
                  )}
                </td>
                <td className="small">
                  {run.outcome === "stopped" ? (
                    t("workflow.runStopped")
                  ) : run.matched.length > 0 ? (
                    run.matched.map((m) => <div key={`${m.field}.${m.op}.${m.value}`}>{why(m)}</div>)
                  ) : (
                    <span className="muted">{t("workflow.runTriggerEvent")}</span>
                  )}
                </td>
                <td className="small">
                  {run.notes.map((n, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: notes are positional, one per action in order
                    <div key={i}>
                      {t(n.reason ? "workflow.runNoteReason" : "workflow.runNote", {
                        action: actionLabel(n.type),
                        result: t(RESULTS[n.result]),
                        reason: n.reason ?? "",
                      })}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Modal>
  );
}
