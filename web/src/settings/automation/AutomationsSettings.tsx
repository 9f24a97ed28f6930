import { useState } from "react";
import type { Automation } from "../../lib/api/types";
import { formatNumber, t } from "../../lib/i18n/i18n";
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
      <h1>{t("workflow.automationsTitle")}</h1>
      <p className="muted small">{t("workflow.automationsIntro")}</p>
      {draft ? (
        <AutomationBuilder key={formKey} draft={draft} onDone={() => setDraft(null)} />
      ) : (
        <div>
          <button type="button" className="btn btn-primary" onClick={() => open(emptyDraft())}>
            {t("workflow.newAutomation")}
          </button>
        </div>
      )}
      <CrudList
        query={automations.list}
        empty={<Empty title={t("workflow.automationsEmpty")}>{t("workflow.automationsEmptyExample")}</Empty>}
      >
        {(rows) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t("workflow.columnOrder")}</th>
                <th>{t("workflow.columnName")}</th>
                <th>{t("workflow.columnWhen")}</th>
                <th>{t("workflow.columnEnabled")}</th>
                <th className="right">{t("workflow.columnRuns")}</th>
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
                      aria-label={t("workflow.moveUp", { name: a.name })}
                      onClick={() => move(i, -1)}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      disabled={i === rows.length - 1}
                      aria-label={t("workflow.moveDown", { name: a.name })}
                      onClick={() => move(i, 1)}
                    >
                      ↓
                    </button>
                  </td>
                  <td>{a.name}</td>
                  <td className="small muted">
                    {t("workflow.automationSummary", {
                      trigger: triggerLabel(a.trigger),
                      count: a.conditions.length,
                      actions: a.actions.map((x) => actionLabel(x.type)).join(", "),
                    })}
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t("workflow.enableNamed", { name: a.name })}
                      checked={a.enabled}
                      onChange={(e) => automations.update.mutate({ id: a.id, enabled: e.target.checked })}
                    />
                  </td>
                  <td className="right" aria-label={t("workflow.automationRunCount", { name: a.name })}>
                    {formatNumber(a.run_count)}
                  </td>
                  <td className="right">
                    <button type="button" className="btn btn-small btn-ghost" onClick={() => setRunsOf(a)}>
                      {t("workflow.runsOf", { name: a.name })}
                    </button>
                    <button type="button" className="btn btn-small btn-ghost" onClick={() => open(draftOf(a))}>
                      {t("workflow.editNamed", { name: a.name })}
                    </button>
                    <DeleteButton
                      question={t("workflow.deleteAutomationQuestion", { name: a.name })}
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
