import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../lib/api/client";
import type { Ticket } from "../lib/api/types";
import { navigate } from "../lib/router/router";
import { Modal } from "../lib/ui/bits";
import { Field, FormError, formValues } from "../lib/ui/form";
import { textToHtml } from "../lib/text";

/** Creates a ticket for a contact by email (found or created), with a first message. */
export function NewTicket({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  // Kept across failed sends: nothing typed is lost.
  const [draft, setDraft] = useState({ email: "", name: "", subject: "", body: "", kind: "note" });
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<Ticket>("/tickets", { body }),
    onSuccess: (ticket) => {
      client.invalidateQueries({ queryKey: ["tickets"] });
      client.invalidateQueries({ queryKey: ["counts"] });
      onClose();
      navigate(`/tickets/${ticket.number}`);
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    create.mutate({
      subject: v.subject,
      channel: "api",
      ...(v.email ? { contact: { email: v.email, name: v.name || undefined } } : {}),
      ...(v.body.trim() ? { body_html: textToHtml(v.body), kind: v.kind } : {}),
    });
  };
  const bind = (key: keyof typeof draft) => ({
    name: key,
    value: draft[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      setDraft({ ...draft, [key]: e.target.value }),
  });
  return (
    <Modal title="New ticket" onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <div className="row2">
          <Field label="Customer email" name="contact.email" error={create.error}>
            <input type="email" {...bind("email")} autoFocus />
          </Field>
          <Field label="Customer name" name="contact.name" error={create.error}>
            <input {...bind("name")} />
          </Field>
        </div>
        <Field label="Subject" name="subject" error={create.error}>
          <input {...bind("subject")} required />
        </Field>
        <Field label="First message" name="body_html" error={create.error}>
          <textarea rows={5} {...bind("body")} />
        </Field>
        <Field label="Message kind" name="kind" error={create.error}>
          <select {...bind("kind")}>
            <option value="note">Internal note</option>
            <option value="reply">Reply (shared with the customer)</option>
          </select>
        </Field>
        <FormError error={create.error} fields={["subject", "contact.email", "contact.name", "body_html", "kind"]} />
        <div className="actions">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create ticket"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
