import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../lib/api/client";
import type { Ticket } from "../lib/api/types";
import { navigate } from "../lib/router/router";
import { Modal } from "../lib/ui/bits";
import { Field, FormError, formValues } from "../lib/ui/form";
import { textToHtml } from "../lib/text";
import { t } from "../lib/i18n/i18n";
import { ticketKeys, useSenders } from "./tickets.queries";

/** The "From" value of a ticket that is not mailed: created as channel `api`, its replies stay on Desk. */
const NO_MAIL = "";

/**
 * Creates a ticket for a contact by email (found or created), with a first message. With a mailbox
 * as "From" it is an email ticket: a first reply is mailed to the customer, and so is every later one.
 */
export function NewTicket({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const senders = useSenders();
  // Kept across failed sends: nothing typed is lost. `from` is null until the agent picks (the default mailbox).
  const [draft, setDraft] = useState({ email: "", name: "", subject: "", body: "", kind: "reply" });
  const [picked, setPicked] = useState<string | null>(null);
  const usable = (senders.data ?? []).filter((s) => s.status !== "disabled");
  const from = picked ?? (usable.find((s) => s.default) ?? usable[0])?.id ?? NO_MAIL;
  const mailed = from !== NO_MAIL;
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<Ticket>("/tickets", { body }),
    onSuccess: (ticket) => {
      client.invalidateQueries({ queryKey: ticketKeys.lists });
      client.invalidateQueries({ queryKey: ticketKeys.counts });
      onClose();
      navigate(`/tickets/${ticket.number}`);
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    create.mutate({
      subject: v.subject,
      ...(mailed ? { channel: "email", mailbox_id: from } : { channel: "api" }),
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
    <Modal title={t("tickets.newTicket")} onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <div className="row2">
          <Field
            label={t("tickets.customerEmail")}
            name="contact.email"
            error={create.error}
            hint={mailed && !draft.email.trim() ? t("tickets.customerEmailNeeded") : undefined}
          >
            <input type="email" {...bind("email")} autoFocus />
          </Field>
          <Field label={t("tickets.customerName")} name="contact.name" error={create.error}>
            <input {...bind("name")} />
          </Field>
        </div>
        <Field label={t("tickets.subject")} name="subject" error={create.error}>
          <input {...bind("subject")} required />
        </Field>
        <Field
          label={t("tickets.from")}
          name="mailbox_id"
          error={create.error}
          hint={mailed ? t("tickets.fromHint") : undefined}
        >
          <select
            value={from}
            onChange={(e) => setPicked(e.target.value)}
            disabled={senders.isPending}
            data-testid="new-ticket-from"
          >
            {usable.map((s) => (
              <option key={s.id} value={s.id}>
                {s.display_name || s.name} &lt;{s.email}&gt;
              </option>
            ))}
            <option value={NO_MAIL}>{t("tickets.noEmailOption")}</option>
          </select>
        </Field>
        {!mailed && !senders.isPending && (
          <p className="notice-warn" role="note">
            {usable.length === 0 ? t("tickets.newTicketNoMailbox") : t("tickets.newTicketNotEmailed")}
          </p>
        )}
        <Field label={t("tickets.firstMessage")} name="body_html" error={create.error}>
          <textarea rows={5} {...bind("body")} />
        </Field>
        <Field label={t("tickets.messageKind")} name="kind" error={create.error}>
          <select {...bind("kind")}>
            <option value="reply">{mailed ? t("tickets.replyEmailed") : t("tickets.replyShared")}</option>
            <option value="note">{t("tickets.internalNote")}</option>
          </select>
        </Field>
        <FormError
          error={create.error}
          fields={["subject", "contact.email", "contact.name", "mailbox_id", "body_html", "kind"]}
        />
        <div className="actions">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? t("tickets.creating") : t("tickets.createTicket")}
          </button>
        </div>
      </form>
    </Modal>
  );
}
