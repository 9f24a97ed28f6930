import { type FormEvent, useState } from "react";
import { type CustomField, FIELD_ENTITIES, type FieldEntity, FIELD_TYPES, type FieldType } from "../../lib/api/types";
import { type MessageKey, t } from "../../lib/i18n/i18n";
import { Field, formValues } from "../../lib/ui/form";
import { Empty } from "../../lib/ui/states";
import { useCrud } from "../kit/crud";
import { ChangeError, CreateForm, CrudList, DeleteButton } from "../kit/CrudScreen";
import { customFieldsKeys } from "../../lib/resources/custom-fields";

const ENTITY_LABELS: Record<FieldEntity, MessageKey> = {
  ticket: "workflow.entityTickets",
  contact: "workflow.entityContacts",
  company: "workflow.entityCompanies",
};

const TYPE_LABELS: Record<FieldType, MessageKey> = {
  text: "workflow.typeText",
  long_text: "workflow.typeLongText",
  number: "workflow.typeNumber",
  select: "workflow.typeSelect",
  multi_select: "workflow.typeMultiSelect",
  date: "workflow.typeDate",
  checkbox: "workflow.typeCheckbox",
  url: "workflow.typeUrl",
  email: "workflow.typeEmail",
  user: "workflow.typeUser",
};

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
      <h1>{t("workflow.fieldsTitle")}</h1>
      <div className="tabs">
        {FIELD_ENTITIES.map((e) => (
          <button type="button" key={e} className={e === entity ? "active" : ""} onClick={() => setEntity(e)}>
            {t(ENTITY_LABELS[e])}
          </button>
        ))}
      </div>
      <CreateForm
        mutation={fields.create}
        fields={["name", "type", "key", "description", "options"]}
        submitLabel={t("workflow.addField")}
        onSubmit={add}
      >
        <div className="row2">
          <Field label={t("workflow.labelName")} name="name" error={fields.create.error}>
            <input name="name" placeholder={t("workflow.fieldNamePlaceholder")} />
          </Field>
          <Field label={t("workflow.labelType")} name="type" error={fields.create.error}>
            <select value={type} onChange={(e) => setType(e.target.value as FieldType)}>
              {FIELD_TYPES.map((fieldType) => (
                <option key={fieldType} value={fieldType}>
                  {t(TYPE_LABELS[fieldType])}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="row2">
          <Field label={t("workflow.labelKey")} name="key" error={fields.create.error} hint={t("workflow.hintKey")}>
            <input name="key" placeholder={t("workflow.fieldKeyPlaceholder")} />
          </Field>
          <Field label={t("workflow.labelDescription")} name="description" error={fields.create.error}>
            <input name="description" />
          </Field>
        </div>
        {(type === "select" || type === "multi_select") && (
          <Field label={t("workflow.labelOptions")} name="options" error={fields.create.error}>
            <input name="options" placeholder={t("workflow.optionsPlaceholder")} />
          </Field>
        )}
        {entity === "ticket" && (
          <label className="check">
            <input type="checkbox" name="required_on_solve" /> {t("workflow.requiredToSolve")}
          </label>
        )}
      </CreateForm>
      <CrudList
        query={fields.list}
        select={(all) => all.filter((f) => f.entity === entity)}
        empty={<Empty title={t("workflow.fieldsEmpty", { entity })} />}
      >
        {(rows) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t("workflow.columnName")}</th>
                <th>{t("workflow.columnKey")}</th>
                <th>{t("workflow.columnType")}</th>
                <th>{t("workflow.columnOptions")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((f) => (
                <tr key={f.id} className={f.archived ? "muted" : ""}>
                  <td>
                    {f.name}
                    {f.required_on_solve && (
                      <span className="req" title={t("workflow.requiredToSolve")}>
                        *
                      </span>
                    )}
                  </td>
                  <td>
                    <code>{f.key}</code>
                  </td>
                  <td>{t(TYPE_LABELS[f.type])}</td>
                  <td className="small">{f.options?.map((o) => o.label).join(", ")}</td>
                  <td className="right">
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      onClick={() => fields.update.mutate({ id: f.id, archived: !f.archived })}
                    >
                      {f.archived ? t("workflow.restore") : t("workflow.archive")}
                    </button>
                    <DeleteButton
                      question={t("workflow.deleteFieldQuestion", { name: f.name })}
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
