import { type FormEvent, useState } from "react";
import type { SavedReply } from "../../lib/api/types";
import { t } from "../../lib/i18n/i18n";
import { Field, formValues } from "../../lib/ui/form";
import { Empty } from "../../lib/ui/states";
import { htmlToText, textToHtml } from "../../lib/text";
import { useCrud } from "../kit/crud";
import { ChangeError, CreateForm, CrudList, DeleteButton, EditDialog } from "../kit/CrudScreen";
import { savedRepliesKeys } from "../../lib/resources/saved-replies";

export default function SavedRepliesSettings() {
  const replies = useCrud<SavedReply>(savedRepliesKeys.list, "/saved-replies");
  const [editing, setEditing] = useState<SavedReply | null>(null);
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!editing) return;
    const v = formValues(e.currentTarget);
    replies.update.mutate(
      {
        id: editing.id,
        title: v.title,
        // An emptied shortcut removes it.
        shortcut: v.shortcut ? v.shortcut : null,
        body_html: v.body ? textToHtml(v.body) : "",
      },
      { onSuccess: () => setEditing(null) },
    );
  };
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    replies.create.mutate(
      { title: v.title, shortcut: v.shortcut || undefined, body_html: v.body ? textToHtml(v.body) : "" },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <div className="settings-page">
      <h1>{t("workflow.savedRepliesTitle")}</h1>
      <CreateForm
        mutation={replies.create}
        fields={["title", "shortcut", "body_html"]}
        submitLabel={t("workflow.addSavedReply")}
        onSubmit={add}
      >
        <div className="row2">
          <Field label={t("workflow.labelTitle")} name="title" error={replies.create.error}>
            <input name="title" placeholder={t("workflow.replyTitlePlaceholder")} />
          </Field>
          <Field label={t("workflow.labelShortcut")} name="shortcut" error={replies.create.error}>
            <input name="shortcut" placeholder={t("workflow.shortcutPlaceholder")} />
          </Field>
        </div>
        <Field label={t("workflow.labelText")} name="body_html" error={replies.create.error}>
          <textarea name="body" rows={4} />
        </Field>
      </CreateForm>
      <CrudList query={replies.list} empty={<Empty title={t("workflow.savedRepliesEmpty")} />}>
        {(rows) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t("workflow.columnTitle")}</th>
                <th>{t("workflow.columnShortcut")}</th>
                <th>{t("workflow.columnText")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{r.title}</td>
                  <td>
                    <code>{r.shortcut}</code>
                  </td>
                  <td className="small muted clip">{htmlToText(r.body_html)}</td>
                  <td className="right">
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-label={t("workflow.editNamed", { name: r.title })}
                      onClick={() => {
                        replies.update.reset();
                        setEditing(r);
                      }}
                    >
                      {t("common.edit")}
                    </button>{" "}
                    <DeleteButton className="btn btn-small btn-ghost" onDelete={() => replies.remove.mutate(r.id)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CrudList>
      <ChangeError mutations={[replies.remove]} />
      {editing && (
        <EditDialog
          title={t("workflow.editSavedReply")}
          mutation={replies.update}
          fields={["title", "shortcut", "body_html"]}
          onSubmit={save}
          onClose={() => setEditing(null)}
        >
          <Field label={t("workflow.labelTitle")} name="title" error={replies.update.error}>
            <input name="title" defaultValue={editing.title} />
          </Field>
          <Field label={t("workflow.labelShortcut")} name="shortcut" error={replies.update.error}>
            <input name="shortcut" defaultValue={editing.shortcut ?? ""} />
          </Field>
          <Field label={t("workflow.labelText")} name="body_html" error={replies.update.error}>
            <textarea name="body" rows={6} defaultValue={htmlToText(editing.body_html)} />
          </Field>
        </EditDialog>
      )}
    </div>
  );
}
