import { type FormEvent, useState } from "react";
import { canAdmin, useRole } from "../../lib/api/session";
import type { Macro } from "../../lib/api/types";
import { formatNumber, t } from "../../lib/i18n/i18n";
import { useCustomFields } from "../../lib/resources/custom-fields";
import { useTags } from "../../lib/resources/labels";
import { Field, FormError } from "../../lib/ui/form";
import { Empty } from "../../lib/ui/states";
import { ActionRow } from "../automation/AutomationBuilder";
import { ACTIONS, actionLabel, type DraftAction } from "../automation/automation-rules";
import { useCrud } from "../kit/crud";
import { ChangeError, CrudList, DeleteButton } from "../kit/CrudScreen";
import { macrosKeys } from "../../lib/resources/macros";

/** Everything an automation can do except AI triage, which runs on the AI's own events. */
const MACRO_ACTIONS = ACTIONS.filter((a) => a.id !== "ai_triage");

type Draft = { id?: string; name: string; description: string; shared: boolean; actions: DraftAction[] };

const emptyDraft = (shared: boolean): Draft => ({
  name: "",
  description: "",
  shared,
  actions: [{ type: "set_status", value: "solved" }],
});
const draftOf = (m: Macro): Draft => ({
  id: m.id,
  name: m.name,
  description: m.description,
  shared: m.shared,
  actions: m.actions.map((a) => ({ ...a })),
});

function MacroBuilder({ draft, onDone, mayShare }: { draft: Draft; onDone: () => void; mayShare: boolean }) {
  const macros = useCrud<Macro>(macrosKeys.list, "/macros");
  const fields = useCustomFields("ticket").data ?? [];
  const tags = useTags();
  const [state, setState] = useState<Draft>(draft);
  const mutation = state.id ? macros.update : macros.create;
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const body = {
      name: state.name,
      description: state.description,
      ...(mayShare ? { shared: state.shared } : {}),
      actions: state.actions.map((a) => ({
        type: a.type,
        value: a.value,
        ...(a.type === "set_field" ? { field: a.field ?? "" } : {}),
      })),
    };
    if (state.id) macros.update.mutate({ id: state.id, ...body }, { onSuccess: onDone });
    else macros.create.mutate(body, { onSuccess: onDone });
  };
  const patchAction = (index: number, value: DraftAction | null) =>
    setState((s) => {
      const actions = [...s.actions];
      if (value === null) actions.splice(index, 1);
      else actions[index] = value;
      return { ...s, actions };
    });
  const error = mutation.error;
  return (
    <form
      className="stack card automation-builder"
      onSubmit={save}
      noValidate
      aria-label={state.id ? t("workflow.editMacro") : t("workflow.newMacro")}
    >
      <h2>{state.id ? t("workflow.editQuoted", { name: draft.name }) : t("workflow.newMacro")}</h2>
      <div className="row2">
        <Field label={t("workflow.labelName")} name="name" error={error}>
          <input
            value={state.name}
            onChange={(e) => setState({ ...state, name: e.target.value })}
            placeholder={t("workflow.macroNamePlaceholder")}
          />
        </Field>
        <Field label={t("workflow.labelDescription")} name="description" error={error}>
          <input value={state.description} onChange={(e) => setState({ ...state, description: e.target.value })} />
        </Field>
      </div>
      {mayShare && (
        <label className="check">
          <input
            type="checkbox"
            checked={state.shared}
            onChange={(e) => setState({ ...state, shared: e.target.checked })}
          />{" "}
          {t("workflow.sharedWithWholeWorkspace")}
        </label>
      )}
      <p className="muted small">
        {t("workflow.macroPlaceholders", {
          first: "{{contact.first_name}}",
          second: "{{ticket.number}}",
          third: "{{agent.name}}",
        })}
      </p>
      <h3 className="small">{t("workflow.actionsHeading")}</h3>
      {state.actions.map((a, i) => (
        <ActionRow
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional; their index is their identity
          key={i}
          index={i}
          action={a}
          fields={fields}
          error={error}
          choices={MACRO_ACTIONS}
          onChange={(next) => patchAction(i, next)}
          onRemove={() => patchAction(i, null)}
        />
      ))}
      {tags.data && (
        <datalist id="automation-tag-names">
          {tags.data
            .filter((tag) => !tag.archived && tag.applies_to.includes("tickets"))
            .map((tag) => (
              <option key={tag.id} value={tag.name} />
            ))}
        </datalist>
      )}
      <div>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => setState((s) => ({ ...s, actions: [...s.actions, { type: "add_tag", value: "" }] }))}
        >
          {t("workflow.addAction")}
        </button>
      </div>
      <FormError
        error={error}
        fields={[
          "name",
          "description",
          "shared",
          ...state.actions.flatMap((_, i) => ["type", "field", "value"].map((m) => `actions.${i}.${m}`)),
        ]}
      />
      <div className="actions">
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {state.id ? t("workflow.saveMacro") : t("workflow.createMacro")}
        </button>
      </div>
    </form>
  );
}

/** Macros: saved sets of actions applied to a ticket in one click (personal, or shared by admins). */
export default function MacrosSettings() {
  const macros = useCrud<Macro>(macrosKeys.list, "/macros");
  const admin = canAdmin(useRole());
  const [draft, setDraft] = useState<Draft | null>(null);
  const [formKey, setFormKey] = useState(0);
  const open = (next: Draft) => {
    setDraft(next);
    setFormKey((k) => k + 1);
  };
  return (
    <div className="settings-page">
      <h1>{t("workflow.macrosTitle")}</h1>
      <p className="muted small">
        {t("workflow.macrosIntro")} {admin ? t("workflow.macrosPersonalAdmin") : t("workflow.macrosPersonalMember")}
      </p>
      {draft ? (
        <MacroBuilder key={formKey} draft={draft} mayShare={admin} onDone={() => setDraft(null)} />
      ) : (
        <div>
          <button type="button" className="btn btn-primary" onClick={() => open(emptyDraft(admin))}>
            {t("workflow.newMacro")}
          </button>
        </div>
      )}
      <CrudList
        query={macros.list}
        empty={<Empty title={t("workflow.macrosEmpty")}>{t("workflow.macrosEmptyExample")}</Empty>}
      >
        {(rows) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t("workflow.columnName")}</th>
                <th>{t("workflow.columnActions")}</th>
                <th>{t("workflow.columnWho")}</th>
                <th className="right">{t("workflow.columnUsed")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id}>
                  <td>
                    {m.name}
                    {m.description && <div className="small muted">{m.description}</div>}
                  </td>
                  <td className="small muted">{m.actions.map((x) => actionLabel(x.type)).join(", ")}</td>
                  <td className="small">{m.shared ? t("workflow.macroShared") : t("workflow.macroPersonal")}</td>
                  <td className="right" aria-label={t("workflow.macroUsedCount", { name: m.name })}>
                    {formatNumber(m.usage_count)}
                  </td>
                  <td className="right">
                    {(!m.shared || admin) && (
                      <>
                        <button type="button" className="btn btn-small btn-ghost" onClick={() => open(draftOf(m))}>
                          {t("workflow.editNamed", { name: m.name })}
                        </button>
                        <DeleteButton
                          question={t("workflow.deleteMacroQuestion", { name: m.name })}
                          onDelete={() => macros.remove.mutate(m.id)}
                          className="btn btn-small btn-ghost"
                        >
                          {t("workflow.deleteNamed", { name: m.name })}
                        </DeleteButton>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CrudList>
      <ChangeError mutations={[macros.remove]} alert />
    </div>
  );
}
