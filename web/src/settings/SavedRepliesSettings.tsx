import { type FormEvent, useState } from "react";
import type { SavedReply } from "../lib/api/types";
import { Modal } from "../lib/ui/bits";
import { Field, FormError, formValues } from "../lib/ui/form";
import { Empty, ErrorBox, errorText, Loading } from "../lib/ui/states";
import { htmlToText, textToHtml } from "../lib/text";
import { useCrud } from "./crud";

export default function SavedRepliesSettings() {
  const replies = useCrud<SavedReply>("saved-replies", "/saved-replies");
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
      <h1>Saved replies</h1>
      <form className="stack narrow card" onSubmit={add} noValidate>
        <div className="row2">
          <Field label="Title" name="title" error={replies.create.error}>
            <input name="title" placeholder="Refund policy" />
          </Field>
          <Field label="Shortcut" name="shortcut" error={replies.create.error}>
            <input name="shortcut" placeholder="refund" />
          </Field>
        </div>
        <Field label="Text" name="body_html" error={replies.create.error}>
          <textarea name="body" rows={4} />
        </Field>
        <FormError error={replies.create.error} fields={["title", "shortcut", "body_html"]} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={replies.create.isPending}>
            Add saved reply
          </button>
        </div>
      </form>
      {replies.list.isPending ? (
        <Loading />
      ) : replies.list.isError ? (
        <ErrorBox error={replies.list.error} retry={() => replies.list.refetch()} />
      ) : replies.list.data.length === 0 ? (
        <Empty title="No saved replies yet" />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Title</th>
              <th>Shortcut</th>
              <th>Text</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {replies.list.data.map((r) => (
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
                    aria-label={`Edit ${r.title}`}
                    onClick={() => {
                      replies.update.reset();
                      setEditing(r);
                    }}
                  >
                    Edit
                  </button>{" "}
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => replies.remove.mutate(r.id)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {replies.remove.isError && <div className="form-error">{errorText(replies.remove.error)}</div>}
      {editing && (
        <Modal title="Edit saved reply" onClose={() => setEditing(null)}>
          <form className="stack" onSubmit={save} noValidate>
            <Field label="Title" name="title" error={replies.update.error}>
              <input name="title" defaultValue={editing.title} />
            </Field>
            <Field label="Shortcut" name="shortcut" error={replies.update.error}>
              <input name="shortcut" defaultValue={editing.shortcut ?? ""} />
            </Field>
            <Field label="Text" name="body_html" error={replies.update.error}>
              <textarea name="body" rows={6} defaultValue={htmlToText(editing.body_html)} />
            </Field>
            <FormError error={replies.update.error} fields={["title", "shortcut", "body_html"]} />
            <div className="actions">
              <button type="submit" className="btn btn-primary" disabled={replies.update.isPending}>
                Save
              </button>
              <button type="button" className="btn" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </div>
          </form>
        </Modal>
      )}
    </div>
  );
}
