import { type FormEvent, useState } from "react";
import { canAdmin, useRole } from "../../lib/api/session";
import type { Macro } from "../../lib/api/types";
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
      aria-label={state.id ? "Edit macro" : "New macro"}
    >
      <h2>{state.id ? `Edit “${draft.name}”` : "New macro"}</h2>
      <div className="row2">
        <Field label="Name" name="name" error={error}>
          <input
            value={state.name}
            onChange={(e) => setState({ ...state, name: e.target.value })}
            placeholder="Refund issued"
          />
        </Field>
        <Field label="Description" name="description" error={error}>
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
          Shared with the whole workspace
        </label>
      )}
      <p className="muted small">
        Replies and notes may use placeholders such as {"{{contact.first_name}}"}, {"{{ticket.number}}"} and{" "}
        {"{{agent.name}}"}; they are filled in from the ticket when the macro is applied.
      </p>
      <h3 className="small">Actions</h3>
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
            .filter((t) => !t.archived && t.applies_to.includes("tickets"))
            .map((t) => (
              <option key={t.id} value={t.name} />
            ))}
        </datalist>
      )}
      <div>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => setState((s) => ({ ...s, actions: [...s.actions, { type: "add_tag", value: "" }] }))}
        >
          Add action
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
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {state.id ? "Save macro" : "Create macro"}
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
      <h1>Macros</h1>
      <p className="muted small">
        A macro applies its actions to a ticket in one click, from the composer or to many tickets from the inbox.
        Personal macros are yours alone; {admin ? "shared ones are for everyone." : "admins make shared ones."}
      </p>
      {draft ? (
        <MacroBuilder key={formKey} draft={draft} mayShare={admin} onDone={() => setDraft(null)} />
      ) : (
        <div>
          <button type="button" className="btn btn-primary" onClick={() => open(emptyDraft(admin))}>
            New macro
          </button>
        </div>
      )}
      <CrudList
        query={macros.list}
        empty={
          <Empty title="No macros yet">
            For example: reply with the refund policy, add the Billing label and solve.
          </Empty>
        }
      >
        {(rows) => (
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Actions</th>
                <th>Who</th>
                <th className="right">Used</th>
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
                  <td className="small">{m.shared ? "Shared" : "Personal"}</td>
                  <td className="right" aria-label={`${m.name} used`}>
                    {m.usage_count}
                  </td>
                  <td className="right">
                    {(!m.shared || admin) && (
                      <>
                        <button type="button" className="btn btn-small btn-ghost" onClick={() => open(draftOf(m))}>
                          Edit {m.name}
                        </button>
                        <DeleteButton
                          question={`Delete the macro “${m.name}”?`}
                          onDelete={() => macros.remove.mutate(m.id)}
                          className="btn btn-small btn-ghost"
                        >
                          Delete {m.name}
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
