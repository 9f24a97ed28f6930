import { type FormEvent, useState } from "react";
import type { Automation, CustomField, Mailbox } from "../../lib/api/types";
import { t } from "../../lib/i18n/i18n";
import { useCustomFields } from "../../lib/resources/custom-fields";
import { useTags } from "../../lib/resources/labels";
import { useMembers } from "../../lib/resources/members";
import { useTeams } from "../../lib/resources/teams";
import { statusLabel } from "../../lib/ui/bits";
import { Field, FormError } from "../../lib/ui/form";
import {
  ACTIONS,
  actionLabel,
  type Choice,
  customFieldOf,
  type DraftAction,
  type DraftCondition,
  defaultActionValue,
  defaultConditionValue,
  ENUM_VALUES,
  fieldsFor,
  isHoursField,
  isTimeField,
  operatorsFor,
  opLabel,
  TRIGGERS,
  type TriggerId,
  triggerLabel,
} from "./automation-rules";
import { useCrud } from "../kit/crud";
import { automationsKeys } from "./automations.queries";
import { mailboxesKeys } from "../../lib/resources/mailboxes";

export type Draft = {
  id?: string;
  name: string;
  trigger: TriggerId;
  conditions: DraftCondition[];
  actions: DraftAction[];
  enabled: boolean;
  allowAiReply: boolean;
};

export const emptyDraft = (): Draft => ({
  name: "",
  trigger: "ticket_created",
  conditions: [],
  actions: [{ type: "add_tag", value: "" }],
  enabled: true,
  allowAiReply: false,
});

export const draftOf = (a: Automation): Draft => ({
  id: a.id,
  name: a.name,
  trigger: a.trigger,
  conditions: a.conditions.map((c) => ({ ...c, value: String(c.value) })),
  actions: a.actions.map((x) => ({ ...x })),
  enabled: a.enabled,
  allowAiReply: a.allow_customer_reply_on_ai_decision,
});

const NO_VALUE_OPS = ["set", "not_set", "breached"];
const LIST_OPS = ["any", "all", "none"];

const valueLabel = (field: string) =>
  field === "ai_decide"
    ? t("workflow.valueProbability")
    : isHoursField(field)
      ? t("workflow.valueHours")
      : field === "sla"
        ? t("workflow.valueMinutes")
        : t("workflow.valueValue");

/** The value of one custom field, with the picker its type needs (comma-separated ids for lists). */
function CustomValue({
  field,
  value,
  multiple,
  onChange,
}: {
  field: CustomField;
  value: string;
  multiple: boolean;
  onChange: (value: string) => void;
}) {
  const members = useMembers();
  if (field.type === "select" || field.type === "multi_select") {
    const selected = value.split(",").filter(Boolean);
    return multiple || field.type === "multi_select" ? (
      <select
        multiple
        value={selected}
        onChange={(e) => onChange([...e.target.selectedOptions].map((o) => o.value).join(","))}
      >
        {(field.options ?? []).map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    ) : (
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t("workflow.choose")}</option>
        {(field.options ?? []).map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    );
  }
  if (field.type === "checkbox")
    return (
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t("workflow.choose")}</option>
        <option value="true">{t("workflow.checkboxChecked")}</option>
        <option value="false">{t("workflow.checkboxNotChecked")}</option>
      </select>
    );
  if (field.type === "user")
    return (
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t("workflow.choose")}</option>
        {(members.data ?? []).map((m) => (
          <option key={m.user.id} value={m.user.id}>
            {m.user.name}
          </option>
        ))}
      </select>
    );
  const type = field.type === "number" ? "number" : field.type === "date" ? "date" : "text";
  return <input type={type} value={value} onChange={(e) => onChange(e.target.value)} />;
}

function ConditionRow({
  index,
  condition,
  trigger,
  fields,
  mailboxes,
  error,
  onChange,
  onRemove,
}: {
  index: number;
  condition: DraftCondition;
  trigger: TriggerId;
  fields: CustomField[];
  mailboxes: Mailbox[];
  error: unknown;
  onChange: (c: DraftCondition) => void;
  onRemove: () => void;
}) {
  const tags = useTags();
  const at = `conditions.${index}`;
  const custom = customFieldOf(condition.field, fields);
  const ops = operatorsFor(condition.field, fields);
  const setField = (field: string) => {
    const nextOps = operatorsFor(field, fields);
    onChange({
      field,
      op: nextOps[0]!,
      value: defaultConditionValue(field),
      question: field === "ai_decide" ? "" : undefined,
    });
  };
  const set = (value: string) => onChange({ ...condition, value });
  let picker: React.ReactNode;
  const enumValues = ENUM_VALUES[condition.field];
  if (NO_VALUE_OPS.includes(condition.op)) picker = null;
  else if (custom)
    picker = (
      <CustomValue field={custom} value={condition.value} multiple={LIST_OPS.includes(condition.op)} onChange={set} />
    );
  else if (enumValues)
    picker = (
      <select value={condition.value} onChange={(e) => set(e.target.value)}>
        {enumValues.map((v) => (
          <option key={v} value={v}>
            {v === "none" ? t("workflow.severityNone") : statusLabel(v)}
          </option>
        ))}
      </select>
    );
  else if (condition.field === "mailbox_id")
    picker = (
      <select value={condition.value} onChange={(e) => set(e.target.value)}>
        <option value="">{t("workflow.choose")}</option>
        {mailboxes.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name} ({m.email})
          </option>
        ))}
      </select>
    );
  else if (isTimeField(condition.field))
    picker = <input type="number" min={0} step={1} value={condition.value} onChange={(e) => set(e.target.value)} />;
  else if (condition.field === "ai_decide")
    picker = (
      <input
        type="number"
        min={0.01}
        max={0.99}
        step={0.01}
        value={condition.value}
        onChange={(e) => set(e.target.value)}
      />
    );
  else
    picker = (
      <input
        value={condition.value}
        list={condition.field === "tag" ? "automation-tag-names" : undefined}
        onChange={(e) => set(e.target.value)}
      />
    );
  return (
    <fieldset className="automation-row">
      <legend>{t("workflow.conditionLegend", { number: index + 1 })}</legend>
      <div className="inline-form">
        <Field label={t("workflow.labelField")} name={`${at}.field`} error={error}>
          <select value={condition.field} onChange={(e) => setField(e.target.value)}>
            {fieldsFor(trigger).map((f) => (
              <option key={f.id} value={f.id}>
                {t(f.label)}
              </option>
            ))}
            {fields.map((f) => (
              <option
                key={`${f.entity}.${f.key}`}
                value={f.entity === "contact" ? `contact.field.${f.key}` : `field.${f.key}`}
              >
                {f.entity === "contact"
                  ? t("workflow.contactFieldOption", { name: f.name })
                  : t("workflow.ticketFieldOption", { name: f.name })}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t("workflow.labelOperator")} name={`${at}.op`} error={error}>
          <select value={condition.op} onChange={(e) => onChange({ ...condition, op: e.target.value })}>
            {ops.map((op) => (
              <option key={op} value={op}>
                {opLabel(op)}
              </option>
            ))}
          </select>
        </Field>
        {picker && (
          <Field label={valueLabel(condition.field)} name={`${at}.value`} error={error}>
            {picker}
          </Field>
        )}
        <button type="button" className="btn btn-small btn-ghost" onClick={onRemove}>
          {t("workflow.removeCondition", { number: index + 1 })}
        </button>
      </div>
      {condition.field === "ai_decide" && (
        <Field
          label={t("workflow.labelQuestion")}
          name={`${at}.question`}
          error={error}
          hint={t("workflow.questionHint", { min: 3, max: 300 })}
        >
          <input
            value={condition.question ?? ""}
            onChange={(e) => onChange({ ...condition, question: e.target.value })}
          />
        </Field>
      )}
      {tags.data && (
        <datalist id="automation-tag-names">
          {tags.data
            .filter((t) => !t.archived)
            .map((t) => (
              <option key={t.id} value={t.name} />
            ))}
        </datalist>
      )}
    </fieldset>
  );
}

/** One action's type and value picker; macros reuse it with their own list of types (`choices`). */
export function ActionRow({
  index,
  action,
  fields,
  error,
  onChange,
  onRemove,
  choices = ACTIONS,
}: {
  index: number;
  action: DraftAction;
  fields: CustomField[];
  error: unknown;
  onChange: (a: DraftAction) => void;
  onRemove: () => void;
  choices?: Choice[];
}) {
  const members = useMembers();
  const teams = useTeams();
  const at = `actions.${index}`;
  const set = (value: string) => onChange({ ...action, value });
  const ticketFields = fields.filter((f) => f.entity === "ticket");
  const target = ticketFields.find((f) => f.key === action.field);
  const enumValues =
    action.type === "set_status"
      ? ENUM_VALUES.status
      : action.type === "set_priority"
        ? ENUM_VALUES.priority
        : action.type === "set_severity"
          ? ENUM_VALUES.severity
          : undefined;
  let picker: React.ReactNode = null;
  if (enumValues)
    picker = (
      <select
        value={action.value === "" ? "none" : action.value}
        onChange={(e) => set(e.target.value === "none" ? "" : e.target.value)}
      >
        {enumValues.map((v) => (
          <option key={v} value={v}>
            {v === "none" ? t("workflow.severityClear") : statusLabel(v)}
          </option>
        ))}
      </select>
    );
  else if (action.type === "assign_user")
    picker = (
      <select value={action.value} onChange={(e) => set(e.target.value)}>
        <option value="">{t("workflow.assignNobody")}</option>
        {(members.data ?? [])
          .filter((m) => m.role !== "viewer")
          .map((m) => (
            <option key={m.user.id} value={m.user.id}>
              {m.user.name}
            </option>
          ))}
      </select>
    );
  else if (action.type === "assign_team")
    picker = (
      <select value={action.value} onChange={(e) => set(e.target.value)}>
        <option value="">{t("workflow.assignNoTeam")}</option>
        {(teams.data ?? []).map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
    );
  else if (action.type === "add_tag" || action.type === "remove_tag")
    picker = <input value={action.value} list="automation-tag-names" onChange={(e) => set(e.target.value)} />;
  else if (action.type === "send_reply" || action.type === "add_note")
    picker = <textarea rows={3} value={action.value} onChange={(e) => set(e.target.value)} />;
  else if (action.type === "set_field")
    picker = target ? <CustomValue field={target} value={action.value} multiple={false} onChange={set} /> : null;
  return (
    <fieldset className="automation-row">
      <legend>{t("workflow.actionLegend", { number: index + 1 })}</legend>
      <div className="inline-form">
        <Field label={t("workflow.labelAction")} name={`${at}.type`} error={error}>
          <select
            value={action.type}
            onChange={(e) =>
              onChange({
                type: e.target.value,
                value: defaultActionValue(e.target.value),
                field: e.target.value === "set_field" ? ticketFields[0]?.key : undefined,
              })
            }
          >
            {choices.map((a) => (
              <option key={a.id} value={a.id}>
                {actionLabel(a.id)}
              </option>
            ))}
          </select>
        </Field>
        {action.type === "set_field" && (
          <Field label={t("workflow.labelCustomField")} name={`${at}.field`} error={error}>
            <select
              value={action.field ?? ""}
              onChange={(e) => onChange({ ...action, field: e.target.value, value: "" })}
            >
              {ticketFields.map((f) => (
                <option key={f.key} value={f.key}>
                  {f.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        {picker && (
          <Field
            label={
              action.type === "send_reply" || action.type === "add_note"
                ? t("workflow.valueMessage")
                : t("workflow.valueValue")
            }
            name={`${at}.value`}
            error={error}
          >
            {picker}
          </Field>
        )}
        <button type="button" className="btn btn-small btn-ghost" onClick={onRemove}>
          {t("workflow.removeAction", { number: index + 1 })}
        </button>
      </div>
    </fieldset>
  );
}

/** The automation form: trigger, conditions and actions with the value picker each one needs. */
export function AutomationBuilder({ draft, onDone }: { draft: Draft; onDone: () => void }) {
  const automations = useCrud<Automation>(automationsKeys.list, "/automations");
  const mailboxes = useCrud<Mailbox>(mailboxesKeys.list, "/mailboxes");
  const ticketFields = useCustomFields("ticket").data ?? [];
  const contactFields = useCustomFields("contact").data ?? [];
  const fields = [...ticketFields, ...contactFields];
  const [state, setState] = useState<Draft>(draft);
  const mutation = state.id ? automations.update : automations.create;
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const body = {
      name: state.name,
      trigger: state.trigger,
      enabled: state.enabled,
      allow_customer_reply_on_ai_decision: state.allowAiReply,
      conditions: state.conditions.map((c) => ({
        field: c.field,
        op: c.op,
        value:
          c.op === "breached"
            ? ""
            : (c.field === "ai_decide" || isTimeField(c.field)) &&
                c.value.trim() !== "" &&
                Number.isFinite(Number(c.value))
              ? Number(c.value)
              : c.value,
        ...(c.field === "ai_decide" ? { question: c.question ?? "" } : {}),
      })),
      actions: state.actions.map((a) => ({
        type: a.type,
        value: a.value,
        ...(a.type === "set_field" ? { field: a.field ?? "" } : {}),
      })),
    };
    if (state.id) automations.update.mutate({ id: state.id, ...body }, { onSuccess: onDone });
    else automations.create.mutate(body, { onSuccess: onDone });
  };
  const patchList = <K extends "conditions" | "actions">(key: K, index: number, value: Draft[K][number] | null) =>
    setState((s) => {
      const list = [...s[key]] as Draft[K][number][];
      if (value === null) list.splice(index, 1);
      else list[index] = value;
      return { ...s, [key]: list };
    });
  const error = mutation.error;
  // The AI's yes/no reads the customer's own words: mailing them on it takes the admin's explicit consent.
  const aiReplies =
    state.conditions.some((c) => c.field === "ai_decide") && state.actions.some((a) => a.type === "send_reply");
  return (
    <form
      className="stack card automation-builder"
      onSubmit={save}
      noValidate
      aria-label={state.id ? t("workflow.editAutomation") : t("workflow.newAutomation")}
    >
      <h2>{state.id ? t("workflow.editQuoted", { name: draft.name }) : t("workflow.newAutomation")}</h2>
      <div className="row2">
        <Field label={t("workflow.labelName")} name="name" error={error}>
          <input
            value={state.name}
            onChange={(e) => setState({ ...state, name: e.target.value })}
            placeholder={t("workflow.automationNamePlaceholder")}
          />
        </Field>
        <Field label={t("workflow.labelWhen")} name="trigger" error={error}>
          <select value={state.trigger} onChange={(e) => setState({ ...state, trigger: e.target.value as TriggerId })}>
            {TRIGGERS.map((trigger) => (
              <option key={trigger.id} value={trigger.id}>
                {triggerLabel(trigger.id)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {state.trigger === "time" && <p className="muted small">{t("workflow.timeRuleNote")}</p>}
      <h3 className="small">
        {t("workflow.conditionsHeading")}{" "}
        {state.conditions.length === 0 && <span className="muted">{t("workflow.conditionsAlways")}</span>}
      </h3>
      {state.conditions.map((c, i) => (
        <ConditionRow
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional; their index is their identity
          key={i}
          index={i}
          condition={c}
          trigger={state.trigger}
          fields={fields}
          mailboxes={mailboxes.list.data ?? []}
          error={error}
          onChange={(next) => patchList("conditions", i, next)}
          onRemove={() => patchList("conditions", i, null)}
        />
      ))}
      <div>
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            setState((s) => ({
              ...s,
              conditions: [
                ...s.conditions,
                s.trigger === "time"
                  ? { field: "hours_since_created", op: "gt", value: "24" }
                  : { field: "subject", op: "contains", value: "" },
              ],
            }))
          }
        >
          {t("workflow.addCondition")}
        </button>
      </div>
      <h3 className="small">{t("workflow.thenHeading")}</h3>
      {state.actions.map((a, i) => (
        <ActionRow
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional; their index is their identity
          key={i}
          index={i}
          action={a}
          fields={fields}
          error={error}
          onChange={(next) => patchList("actions", i, next)}
          onRemove={() => patchList("actions", i, null)}
        />
      ))}
      <div>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => setState((s) => ({ ...s, actions: [...s.actions, { type: "add_tag", value: "" }] }))}
        >
          {t("workflow.addAction")}
        </button>
      </div>
      {(aiReplies || state.allowAiReply) && (
        <div className="notice-warn" role="note">
          <p>
            <strong>{t("workflow.aiReplyWarningTitle")}</strong> {t("workflow.aiReplyWarningBody")}
          </p>
          <Field label={t("workflow.aiReplyLabel")} name="allow_customer_reply_on_ai_decision" error={error}>
            <span className="check">
              <input
                type="checkbox"
                checked={state.allowAiReply}
                onChange={(e) => setState({ ...state, allowAiReply: e.target.checked })}
              />{" "}
              {t("workflow.aiReplyConsent")}
            </span>
          </Field>
        </div>
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={state.enabled}
          onChange={(e) => setState({ ...state, enabled: e.target.checked })}
        />{" "}
        {t("workflow.enabled")}
      </label>
      <FormError
        error={error}
        fields={[
          "name",
          "trigger",
          "allow_customer_reply_on_ai_decision",
          ...state.conditions.flatMap((_, i) =>
            ["field", "op", "value", "question"].map((m) => `conditions.${i}.${m}`),
          ),
          ...state.actions.flatMap((_, i) => ["type", "field", "value"].map((m) => `actions.${i}.${m}`)),
        ]}
      />
      <div className="actions">
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {state.id ? t("workflow.saveAutomation") : t("workflow.createAutomation")}
        </button>
      </div>
    </form>
  );
}
