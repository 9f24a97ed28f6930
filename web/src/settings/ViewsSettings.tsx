import type { FormEvent } from "react";
import { STATUSES, type View } from "../lib/api/types";
import { Link } from "../lib/router/Link";
import { statusLabel } from "../lib/ui/bits";
import { Field, FormError, formValues } from "../lib/ui/form";
import { Empty, ErrorBox, errorText, Loading } from "../lib/ui/states";
import { describeViewFilters } from "../inbox/view-filters-text";
import { useCrud } from "./crud";

export default function ViewsSettings() {
  const views = useCrud<View>("views", "/views");
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
      <form className="stack narrow card" onSubmit={add} noValidate>
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
        <FormError
          error={views.create.error}
          fields={["name", "filters.status", "filters.assignee", "filters.tag", "filters.q"]}
        />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={views.create.isPending}>
            Add view
          </button>
        </div>
      </form>
      {views.list.isPending ? (
        <Loading />
      ) : views.list.isError ? (
        <ErrorBox error={views.list.error} retry={() => views.list.refetch()} />
      ) : views.list.data.length === 0 ? (
        <Empty title="No views yet">A view is a saved ticket filter shown in the sidebar.</Empty>
      ) : (
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
            {views.list.data.map((v) => (
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
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => views.remove.mutate(v.id)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(views.update.isError || views.remove.isError) && (
        <div className="form-error">{errorText(views.update.error ?? views.remove.error)}</div>
      )}
    </div>
  );
}
