import { type FormEvent, useState } from "react";
import { PRIORITIES, type SlaPolicy } from "../../lib/api/types";
import { t } from "../../lib/i18n/i18n";
import { tNodes } from "../../lib/i18n/nodes";
import { Link } from "../../lib/router/Link";
import { statusLabel } from "../../lib/ui/bits";
import { Field, formValues } from "../../lib/ui/form";
import { Empty } from "../../lib/ui/states";
import { minutesText } from "../../lib/sla-time";
import { useCrud } from "../kit/crud";
import { ChangeError, CreateForm, CrudList, DeleteButton } from "../kit/CrudScreen";
import { slaPoliciesKeys } from "./sla.queries";

const number = (value: string | undefined) => (value ? Number(value) : undefined);

export default function SlaSettings() {
  const policies = useCrud<SlaPolicy>(slaPoliciesKeys.list, "/sla-policies");
  const [first, setFirst] = useState("");
  const [resolution, setResolution] = useState("");
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    policies.create.mutate(
      {
        name: v.name,
        priority: v.priority || null,
        first_response_minutes: number(v.first_response_minutes),
        resolution_minutes: number(v.resolution_minutes),
        business_hours: v.business_hours === "on",
      },
      {
        onSuccess: () => {
          form.reset();
          setFirst("");
          setResolution("");
        },
      },
    );
  };
  const list = policies.list.data ?? [];
  const move = (index: number, by: -1 | 1) => {
    const target = list[index + by];
    if (target) policies.update.mutate({ id: list[index]!.id, position: index + by });
  };
  const hint = (value: string) => (Number(value) > 0 ? minutesText(Number(value)) : t("workflow.wholeMinutes"));
  return (
    <div className="settings-page">
      <h1>{t("workflow.slaTitle")}</h1>
      <p className="muted small">
        {tNodes("workflow.slaIntro", {
          link: <Link to="/settings/business-hours">{t("workflow.slaIntroLink")}</Link>,
        })}
      </p>
      <CreateForm
        mutation={policies.create}
        fields={["name", "priority", "first_response_minutes", "resolution_minutes"]}
        submitLabel={t("workflow.addPolicy")}
        onSubmit={add}
        label={t("workflow.newSlaPolicy")}
      >
        <div className="row2">
          <Field label={t("workflow.labelName")} name="name" error={policies.create.error}>
            <input name="name" placeholder={t("workflow.policyNamePlaceholder")} />
          </Field>
          <Field label={t("workflow.labelPriority")} name="priority" error={policies.create.error}>
            <select name="priority" defaultValue="">
              <option value="">{t("workflow.any")}</option>
              {PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {statusLabel(p)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="row2">
          <Field
            label={t("workflow.labelFirstResponse")}
            name="first_response_minutes"
            error={policies.create.error}
            hint={hint(first)}
          >
            <input
              name="first_response_minutes"
              type="number"
              min={1}
              inputMode="numeric"
              value={first}
              onChange={(e) => setFirst(e.target.value)}
            />
          </Field>
          <Field
            label={t("workflow.labelResolution")}
            name="resolution_minutes"
            error={policies.create.error}
            hint={hint(resolution)}
          >
            <input
              name="resolution_minutes"
              type="number"
              min={1}
              inputMode="numeric"
              value={resolution}
              onChange={(e) => setResolution(e.target.value)}
            />
          </Field>
        </div>
        <label className="check">
          <input type="checkbox" name="business_hours" /> {t("workflow.countBusinessHoursOnly")}
        </label>
      </CreateForm>
      <CrudList
        query={policies.list}
        empty={<Empty title={t("workflow.slaEmpty")}>{t("workflow.slaEmptyBody")}</Empty>}
      >
        {(rows) => (
          <table className="table" aria-label={t("workflow.slaTitle")}>
            <thead>
              <tr>
                <th>{t("workflow.columnOrder")}</th>
                <th>{t("workflow.columnName")}</th>
                <th>{t("workflow.columnPriority")}</th>
                <th>{t("workflow.columnFirstResponse")}</th>
                <th>{t("workflow.columnResolution")}</th>
                <th>{t("workflow.columnHours")}</th>
                <th>{t("workflow.columnEnabled")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((p, index) => (
                <tr key={p.id}>
                  <td className="nowrap">
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-label={t("workflow.moveUp", { name: p.name })}
                      disabled={index === 0 || policies.update.isPending}
                      onClick={() => move(index, -1)}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-label={t("workflow.moveDown", { name: p.name })}
                      disabled={index === rows.length - 1 || policies.update.isPending}
                      onClick={() => move(index, 1)}
                    >
                      ↓
                    </button>
                  </td>
                  <td>{p.name}</td>
                  <td>{p.priority ? statusLabel(p.priority) : t("workflow.any")}</td>
                  <td>{minutesText(p.first_response_minutes)}</td>
                  <td>{minutesText(p.resolution_minutes)}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t("workflow.businessHoursOnlyNamed", { name: p.name })}
                      checked={p.business_hours}
                      onChange={(e) => policies.update.mutate({ id: p.id, business_hours: e.target.checked })}
                    />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t("workflow.enableNamed", { name: p.name })}
                      checked={p.enabled}
                      onChange={(e) => policies.update.mutate({ id: p.id, enabled: e.target.checked })}
                    />
                  </td>
                  <td className="right">
                    <DeleteButton onDelete={() => policies.remove.mutate(p.id)} className="btn btn-small btn-ghost" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CrudList>
      <ChangeError mutations={[policies.update, policies.remove]} alert />
    </div>
  );
}
