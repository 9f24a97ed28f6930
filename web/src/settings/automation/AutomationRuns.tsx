import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/client";
import type { Automation } from "../../lib/api/types";
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
  const label = fieldLabel(m.field);
  if (m.op === "breached") return `${label}: breached`;
  if (m.op === "due_within_minutes") return `${label}: due in ${m.actual} min (within ${m.value})`;
  if (isHoursField(m.field)) return `${label}: ${m.actual} h (${m.op === "gt" ? "more" : "less"} than ${m.value})`;
  const value = typeof m.value === "string" ? statusLabel(m.value) : String(m.value);
  return m.actual === null ? `${label} ${opLabel(m.op)} ${value}` : `${label}: ${statusLabel(String(m.actual))}`;
}

/** An automation's recent runs: when, on which ticket, why a time rule fired and what each action did. */
export function AutomationRuns({ automation, onClose }: { automation: Automation; onClose: () => void }) {
  const runs = useQuery({
    queryKey: automationsKeys.runs(automation.id),
    queryFn: () => api<Runs>(`/automations/${automation.id}/runs`),
  });
  return (
    <Modal title={`Runs of ${automation.name}`} onClose={onClose} wide>
      {runs.isPending ? (
        <Loading />
      ) : runs.isError ? (
        <ErrorBox error={runs.error} retry={() => runs.refetch()} />
      ) : runs.data.data.length === 0 ? (
        <Empty title="No runs yet">Runs appear here once the automation acts on a ticket.</Empty>
      ) : (
        <table className="table" aria-label={`Runs of ${automation.name}`}>
          <thead>
            <tr>
              <th>When</th>
              <th>Ticket</th>
              <th>Why</th>
              <th>What it did</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.data.map((run) => (
              <tr key={run.id}>
                <td className="small">
                  {timeAgo(run.created_at)}
                  <div className="muted">{run.trigger === "time" ? "Time rule" : "Event"}</div>
                </td>
                <td>
                  {run.ticket_number === null ? (
                    <span className="muted small">Not visible</span>
                  ) : (
                    <Link to={`/tickets/${run.ticket_number}`}>#{run.ticket_number}</Link>
                  )}
                </td>
                <td className="small">
                  {run.outcome === "stopped" ? (
                    "Stopped: too deep a chain of automations"
                  ) : run.matched.length > 0 ? (
                    run.matched.map((m) => <div key={`${m.field}.${m.op}.${m.value}`}>{why(m)}</div>)
                  ) : (
                    <span className="muted">Its trigger’s event</span>
                  )}
                </td>
                <td className="small">
                  {run.notes.map((n, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: notes are positional, one per action in order
                    <div key={i}>
                      {actionLabel(n.type)}: {n.result}
                      {n.reason ? ` (${n.reason})` : ""}
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
