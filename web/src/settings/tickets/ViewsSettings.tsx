import type { FormEvent } from "react";
import { STATUSES, type View } from "../../lib/api/types";
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
      <h1>Views</h1>
      <p className="muted small">
        Tip: filter the inbox (several statuses, custom fields and more) and press “Save as view”.
      </p>
      <CreateForm
        mutation={views.create}
        fields={["name", "filters.status", "filters.assignee", "filters.tag", "filters.q"]}
        submitLabel="Add view"
        onSubmit={add}
      >
        <div className="row2">
          <Field label="Name" name="name" error={views.create.error}>
            <input name="name" placeholder="Urgent billing" />
          </Field>
          <Field label="Status" name="filters.status" error={views.create.error}>
            <select name="status" defaultValue="">
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusLabel(s)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="row2">
          <Field label="Assignee" name="filters.assignee" error={views.create.error}>
            <select name="assignee" defaultValue="">
              <option value="">Anyone</option>
              <option value="me">Me</option>
              <option value="none">Unassigned</option>
            </select>
          </Field>
          <Field label="Label" name="filters.tag" error={views.create.error}>
            <input name="tag" />
          </Field>
        </div>
        <Field label="Search text" name="filters.q" error={views.create.error}>
          <input name="q" />
        </Field>
        <label className="check">
          <input type="checkbox" name="shared" /> Shared with the workspace
        </label>
      </CreateForm>
      <CrudList
        query={views.list}
        empty={<Empty title="No views yet">A view is a saved ticket filter shown in the sidebar.</Empty>}
      >
        {(rows) => (
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Filters</th>
                <th>Shared</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((v) => (
                <tr key={v.id}>
                  <td>
                    <Link to={`/views/${v.id}`}>{v.name}</Link>
                  </td>
                  <td className="small muted">{describeViewFilters(v.filters ?? {}) || "All tickets"}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Share ${v.name}`}
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
