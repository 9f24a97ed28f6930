import { useState } from "react";
import type { Automation } from "../lib/api/types";
import { Empty, ErrorBox, errorText, Loading } from "../lib/ui/states";
import { AutomationBuilder, type Draft, draftOf, emptyDraft } from "./AutomationBuilder";
import { AutomationRuns } from "./AutomationRuns";
import { actionLabel, triggerLabel } from "./automation-rules";
import { useCrud } from "./crud";

/** Automations: the list in run order (reorder, enable, run count) and the builder. */
export default function AutomationsSettings() {
  const automations = useCrud<Automation>("automations", "/automations");
  const [draft, setDraft] = useState<Draft | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [runsOf, setRunsOf] = useState<Automation | null>(null);
  const open = (next: Draft) => {
    setDraft(next);
    setFormKey((k) => k + 1);
  };
  const list = automations.list.data ?? [];
  const move = (index: number, by: -1 | 1) => {
    const order = [...list];
    const [item] = order.splice(index, 1);
    order.splice(index + by, 0, item!);
    order.forEach((a, position) => {
      if (a.position !== position) automations.update.mutate({ id: a.id, position });
    });
  };
  return (
    <div className="settings-page">
      <h1>Automations</h1>
      <p className="muted small">
        Rules that act on tickets when something happens, or when time passes. Enabled automations of a trigger run in
        this order; each one's changes are attributed to it on the ticket's timeline.
      </p>
      {draft ? (
        <AutomationBuilder key={formKey} draft={draft} onDone={() => setDraft(null)} />
      ) : (
        <div>
          <button type="button" className="btn btn-primary" onClick={() => open(emptyDraft())}>
            New automation
          </button>
        </div>
      )}
      {automations.list.isPending ? (
        <Loading />
      ) : automations.list.isError ? (
        <ErrorBox error={automations.list.error} retry={() => automations.list.refetch()} />
      ) : list.length === 0 ? (
        <Empty title="No automations yet">
          For example: when a ticket is created with “invoice” in the subject, add the Billing label.
        </Empty>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Order</th>
              <th>Name</th>
              <th>When</th>
              <th>Enabled</th>
              <th className="right">Runs</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.map((a, i) => (
              <tr key={a.id}>
                <td>
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    disabled={i === 0}
                    aria-label={`Move ${a.name} up`}
                    onClick={() => move(i, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    disabled={i === list.length - 1}
                    aria-label={`Move ${a.name} down`}
                    onClick={() => move(i, 1)}
                  >
                    ↓
                  </button>
                </td>
                <td>{a.name}</td>
                <td className="small muted">
                  {triggerLabel(a.trigger)} · {a.conditions.length} condition{a.conditions.length === 1 ? "" : "s"} →{" "}
                  {a.actions.map((x) => actionLabel(x.type)).join(", ")}
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Enable ${a.name}`}
                    checked={a.enabled}
                    onChange={(e) => automations.update.mutate({ id: a.id, enabled: e.target.checked })}
                  />
                </td>
                <td className="right" aria-label={`${a.name} runs`}>
                  {a.run_count}
                </td>
                <td className="right">
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => setRunsOf(a)}>
                    Runs of {a.name}
                  </button>
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => open(draftOf(a))}>
                    Edit {a.name}
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    onClick={() => {
                      if (window.confirm(`Delete the automation “${a.name}”?`)) automations.remove.mutate(a.id);
                    }}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {runsOf && <AutomationRuns automation={runsOf} onClose={() => setRunsOf(null)} />}
      {(automations.update.isError || automations.remove.isError) && (
        <div className="form-error" role="alert">
          {errorText(automations.update.error ?? automations.remove.error)}
        </div>
      )}
    </div>
  );
}
