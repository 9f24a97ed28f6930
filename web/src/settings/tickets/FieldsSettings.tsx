import { type FormEvent, useState } from "react";
import { type CustomField, FIELD_ENTITIES, type FieldEntity, FIELD_TYPES, type FieldType } from "../../lib/api/types";
import { Field, formValues } from "../../lib/ui/form";
import { Empty } from "../../lib/ui/states";
import { useCrud } from "../kit/crud";
import { ChangeError, CreateForm, CrudList, DeleteButton } from "../kit/CrudScreen";
import { customFieldsKeys } from "../../lib/resources/custom-fields";

const ENTITY_LABELS: Record<FieldEntity, string> = { ticket: "Tickets", contact: "Contacts", company: "Companies" };

export default function FieldsSettings() {
  const fields = useCrud<CustomField>(customFieldsKeys.list, "/custom-fields");
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
  return (
    <div className="settings-page">
      <h1>Custom fields</h1>
      <div className="tabs">
        {FIELD_ENTITIES.map((e) => (
          <button type="button" key={e} className={e === entity ? "active" : ""} onClick={() => setEntity(e)}>
            {ENTITY_LABELS[e]}
          </button>
        ))}
      </div>
      <CreateForm
        mutation={fields.create}
        fields={["name", "type", "key", "description", "options"]}
        submitLabel="Add field"
        onSubmit={add}
      >
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
      </CreateForm>
      <CrudList
        query={fields.list}
        select={(all) => all.filter((f) => f.entity === entity)}
        empty={<Empty title={`No ${entity} fields yet`} />}
      >
        {(rows) => (
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
              {rows.map((f) => (
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
                    <DeleteButton
                      question={`Delete ${f.name} and every stored value?`}
                      onDelete={() => fields.remove.mutate(f.id)}
                      className="btn btn-small btn-ghost"
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CrudList>
      <ChangeError mutations={[fields.update, fields.remove]} />
    </div>
  );
}
