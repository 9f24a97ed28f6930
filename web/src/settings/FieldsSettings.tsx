import { type FormEvent, useState } from "react";
import { type CustomField, type FieldEntity, FIELD_TYPES, type FieldType } from "../lib/api/types";
import { Field, FormError, formValues } from "../lib/ui/form";
import { Empty, ErrorBox, errorText, Loading } from "../lib/ui/states";
import { useCrud } from "./crud";

const ENTITIES: FieldEntity[] = ["ticket", "contact", "company"];
const ENTITY_LABELS: Record<FieldEntity, string> = { ticket: "Tickets", contact: "Contacts", company: "Companies" };

export default function FieldsSettings() {
  const fields = useCrud<CustomField>("custom-fields", "/custom-fields");
  const [entity, setEntity] = useState<FieldEntity>("ticket");
  const [type, setType] = useState<FieldType>("text");
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    const options = v.options
      ? v.options
          .split(",")
          .map((label) => ({ label: label.trim() }))
          .filter((o) => o.label)
      : undefined;
    fields.create.mutate(
      {
        entity,
        name: v.name,
        type,
        key: v.key || undefined,
        description: v.description || undefined,
        required_on_solve: entity === "ticket" ? v.required_on_solve === "on" : undefined,
        options: type === "select" || type === "multi_select" ? options : undefined,
      },
      { onSuccess: () => form.reset() },
    );
  };
  const list = fields.list.data?.filter((f) => f.entity === entity) ?? [];
  return (
    <div className="settings-page">
      <h1>Custom fields</h1>
      <div className="tabs">
        {ENTITIES.map((e) => (
          <button type="button" key={e} className={e === entity ? "active" : ""} onClick={() => setEntity(e)}>
            {ENTITY_LABELS[e]}
          </button>
        ))}
      </div>
      <form className="stack narrow card" onSubmit={add} noValidate>
        <div className="row2">
          <Field label="Name" name="name" error={fields.create.error}>
            <input name="name" placeholder="Plan" />
          </Field>
          <Field label="Type" name="type" error={fields.create.error}>
            <select value={type} onChange={(e) => setType(e.target.value as FieldType)}>
              {FIELD_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t.replace("_", " ")}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="row2">
          <Field label="Key" name="key" error={fields.create.error} hint="Lowercase; defaults from the name.">
            <input name="key" placeholder="plan" />
          </Field>
          <Field label="Description" name="description" error={fields.create.error}>
            <input name="description" />
          </Field>
        </div>
        {(type === "select" || type === "multi_select") && (
          <Field label="Options (comma separated)" name="options" error={fields.create.error}>
            <input name="options" placeholder="Free, Pro, Enterprise" />
          </Field>
        )}
        {entity === "ticket" && (
          <label className="check">
            <input type="checkbox" name="required_on_solve" /> Required to solve
          </label>
        )}
        <FormError error={fields.create.error} fields={["name", "type", "key", "description", "options"]} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={fields.create.isPending}>
            Add field
          </button>
        </div>
      </form>
      {fields.list.isPending ? (
        <Loading />
      ) : fields.list.isError ? (
        <ErrorBox error={fields.list.error} retry={() => fields.list.refetch()} />
      ) : list.length === 0 ? (
        <Empty title={`No ${entity} fields yet`} />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Type</th>
              <th>Options</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.map((f) => (
              <tr key={f.id} className={f.archived ? "muted" : ""}>
                <td>
                  {f.name}
                  {f.required_on_solve && (
                    <span className="req" title="Required to solve">
                      *
                    </span>
                  )}
                </td>
                <td>
                  <code>{f.key}</code>
                </td>
                <td>{f.type.replace("_", " ")}</td>
                <td className="small">{f.options?.map((o) => o.label).join(", ")}</td>
                <td className="right">
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    onClick={() => fields.update.mutate({ id: f.id, archived: !f.archived })}
                  >
                    {f.archived ? "Restore" : "Archive"}
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    onClick={() => confirm(`Delete ${f.name} and every stored value?`) && fields.remove.mutate(f.id)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(fields.update.isError || fields.remove.isError) && (
        <div className="form-error">{errorText(fields.update.error ?? fields.remove.error)}</div>
      )}
    </div>
  );
}
