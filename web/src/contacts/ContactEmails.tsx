import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, api } from "../lib/api/client";
import type { Contact } from "../lib/api/types";
import { errorText } from "../lib/ui/states";
import { contactKeys } from "./contacts.queries";
import { t } from "../lib/i18n/i18n";

/**
 * A contact's addresses: the first is the one replies go to; any of them finds the contact when
 * mail arrives. Agents add, remove and choose the primary; each change saves the whole list.
 */
export function ContactEmails({ contact, readOnly }: { contact: Contact; readOnly: boolean }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState("");
  const save = useMutation({
    mutationFn: (emails: string[]) => api<Contact>(`/contacts/${contact.id}`, { method: "PATCH", body: { emails } }),
    onSuccess: (saved) => {
      client.setQueryData(contactKeys.one(contact.id), saved);
      client.invalidateQueries({ queryKey: contactKeys.lists });
      setDraft("");
    },
  });
  const emails = contact.emails;
  const add = (e: FormEvent) => {
    e.preventDefault();
    if (draft.trim()) save.mutate([...emails, draft.trim()]);
  };
  const error = save.error;
  const message =
    error instanceof ApiError
      ? (error.errors.find((x) => x.location.startsWith("body.emails"))?.message ?? error.detail)
      : error
        ? errorText(error)
        : null;
  return (
    <section aria-labelledby="contact-emails" className="contact-emails">
      <h3 id="contact-emails">{t("contacts.emails")}</h3>
      {emails.length === 0 ? (
        <p className="muted small">{t("contacts.noEmailAddress")}</p>
      ) : (
        <ul className="mini-list">
          {emails.map((email, i) => (
            <li key={email}>
              <span>{email}</span> {i === 0 && <span className="pill">{t("contacts.primary")}</span>}
              {!readOnly && i > 0 && (
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={save.isPending}
                  onClick={() => save.mutate([email, ...emails.filter((x) => x !== email)])}
                  aria-label={t("contacts.makePrimaryEmail", { email })}
                >
                  {t("contacts.makePrimary")}
                </button>
              )}
              {!readOnly && (
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={save.isPending}
                  onClick={() => save.mutate(emails.filter((x) => x !== email))}
                  aria-label={t("contacts.removeEmail", { email })}
                >
                  {t("contacts.remove")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!readOnly && (
        <form className="inline-form" onSubmit={add} noValidate>
          <label className={`field${message ? " field-invalid" : ""}`}>
            <span className="field-label">{t("contacts.addEmail")}</span>
            <input
              type="email"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              aria-invalid={message ? true : undefined}
            />
            {message && (
              <span className="field-error" role="alert">
                {message}
              </span>
            )}
          </label>
          <button type="submit" className="btn" disabled={save.isPending || !draft.trim()}>
            {t("contacts.add")}
          </button>
        </form>
      )}
    </section>
  );
}
