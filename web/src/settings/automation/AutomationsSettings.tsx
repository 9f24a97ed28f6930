import { useState } from "react";
import type { Automation } from "../../lib/api/types";
import { Empty } from "../../lib/ui/states";
import { AutomationBuilder, type Draft, draftOf, emptyDraft } from "./AutomationBuilder";
import { AutomationRuns } from "./AutomationRuns";
import { actionLabel, triggerLabel } from "./automation-rules";
import { useCrud } from "../kit/crud";
import { ChangeError, CrudList, DeleteButton } from "../kit/CrudScreen";
import { automationsKeys } from "./automations.queries";

/** Automations: the list in run order (reorder, enable, run count) and the builder. */
export default function AutomationsSettings() {
  const automations = useCrud<Automation>(automationsKeys.list, "/automations");
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
      <CrudList
        query={automations.list}
        empty={
          <Empty title="No automations yet">
            For example: when a ticket is created with “invoice” in the subject, add the Billing label.
          </Empty>
        }
      >
        {(rows) => (
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
              {rows.map((a, i) => (
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
                      disabled={i === rows.length - 1}
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
                    <DeleteButton
                      question={`Delete the automation “${a.name}”?`}
                      onDelete={() => automations.remove.mutate(a.id)}
                      className="btn btn-small btn-ghost"
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CrudList>
      {runsOf && <AutomationRuns automation={runsOf} onClose={() => setRunsOf(null)} />}
      <ChangeError mutations={[automations.update, automations.remove]} alert />
    </div>
  );
}
