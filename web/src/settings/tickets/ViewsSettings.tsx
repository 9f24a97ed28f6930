import type { FormEvent } from "react";
import { STATUSES, type View } from "../../lib/api/types";
import { t } from "../../lib/i18n/i18n";
import { Link } from "../../lib/router/Link";
import { statusLabel } from "../../lib/ui/bits";
import { Field, formValues } from "../../lib/ui/form";
import { Empty } from "../../lib/ui/states";
import { describeViewFilters } from "../../inbox/view-filters-text";
import { useCrud } from "../kit/crud";
import { ChangeError, CreateForm, CrudList, DeleteButton } from "../kit/CrudScreen";
import { viewsKeys } from "../../lib/resources/views";

export default function ViewsSettings() {
  const views = useCrud<View>(viewsKeys.list, "/views");
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    const filters: View["filters"] = {};
    if (v.status) filters.status = [v.status as View["filters"]["status"] & string] as View["filters"]["status"];
    if (v.assignee) filters.assignee = v.assignee;
    if (v.tag) filters.tag = v.tag;
    if (v.q) filters.q = v.q;
    views.create.mutate({ name: v.name, shared: v.shared === "on", filters }, { onSuccess: () => form.reset() });
  };
  return (
    <div className="settings-page">
      <h1>{t("workflow.viewsTitle")}</h1>
      <p className="muted small">{t("workflow.viewsTip")}</p>
      <CreateForm
        mutation={views.create}
        fields={["name", "filters.status", "filters.assignee", "filters.tag", "filters.q"]}
        submitLabel={t("workflow.addView")}
        onSubmit={add}
      >
        <div className="row2">
          <Field label={t("workflow.labelName")} name="name" error={views.create.error}>
            <input name="name" placeholder={t("workflow.viewNamePlaceholder")} />
          </Field>
          <Field label={t("workflow.labelStatus")} name="filters.status" error={views.create.error}>
            <select name="status" defaultValue="">
              <option value="">{t("workflow.any")}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusLabel(s)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="row2">
          <Field label={t("workflow.labelAssignee")} name="filters.assignee" error={views.create.error}>
            <select name="assignee" defaultValue="">
              <option value="">{t("workflow.assigneeAnyone")}</option>
              <option value="me">{t("workflow.assigneeMe")}</option>
              <option value="none">{t("workflow.assigneeUnassigned")}</option>
            </select>
          </Field>
          <Field label={t("workflow.labelLabel")} name="filters.tag" error={views.create.error}>
            <input name="tag" />
          </Field>
        </div>
        <Field label={t("workflow.labelSearchText")} name="filters.q" error={views.create.error}>
          <input name="q" />
        </Field>
        <label className="check">
          <input type="checkbox" name="shared" /> {t("workflow.sharedWithWorkspace")}
        </label>
      </CreateForm>
      <CrudList
        query={views.list}
        empty={<Empty title={t("workflow.viewsEmpty")}>{t("workflow.viewsEmptyBody")}</Empty>}
      >
        {(rows) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t("workflow.columnName")}</th>
                <th>{t("workflow.columnFilters")}</th>
                <th>{t("workflow.columnShared")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((v) => (
                <tr key={v.id}>
                  <td>
                    <Link to={`/views/${v.id}`}>{v.name}</Link>
                  </td>
                  <td className="small muted">{describeViewFilters(v.filters ?? {}) || t("workflow.allTickets")}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t("workflow.shareNamed", { name: v.name })}
                      checked={v.shared}
                      onChange={(e) => views.update.mutate({ id: v.id, shared: e.target.checked })}
                    />
                  </td>
                  <td className="right">
                    <DeleteButton onDelete={() => views.remove.mutate(v.id)} className="btn btn-small btn-ghost" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CrudList>
      <ChangeError mutations={[views.update, views.remove]} />
    </div>
  );
}
