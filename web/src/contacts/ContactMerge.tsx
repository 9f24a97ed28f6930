import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, qs } from "../lib/api/client";
import type { Contact } from "../lib/api/types";
import { personName } from "../lib/people";
import { Modal } from "../lib/ui/bits";
import { ErrorBox, errorText } from "../lib/ui/states";
import { ticketKeys } from "../tickets/tickets.queries";
import { contactKeys } from "./contacts.queries";
import { t } from "../lib/i18n/i18n";
import { tNodes } from "../lib/i18n/nodes";

/**
 * Likely duplicates of a contact (same name, an email at the same domain), each with "Merge…":
 * after a confirmation the duplicate's tickets, emails, labels, fields and notes move into this
 * contact and the duplicate is deleted.
 */
export function ContactDuplicates({ contact, canMerge }: { contact: Contact; canMerge: boolean }) {
  const duplicates = useQuery({
    queryKey: contactKeys.duplicates(contact.id),
    queryFn: () => api<{ data: Contact[] }>(`/contacts/${contact.id}/duplicates`),
  });
  const [merging, setMerging] = useState<Contact | null>(null);
  if (duplicates.isError) return <ErrorBox error={duplicates.error} />;
  const list = duplicates.data?.data ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="contact-duplicates">
      <h3 id="contact-duplicates">{t("contacts.possibleDuplicates")}</h3>
      <ul className="mini-list">
        {list.map((d) => (
          <li key={d.id}>
            <span>
              {personName(d.name, d.email)} <span className="muted">{d.emails.join(", ")}</span>{" "}
              <span className="muted small">{t("contacts.ticketCount", { count: d.ticket_count })}</span>
            </span>
            {canMerge && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => setMerging(d)}
                aria-label={t("contacts.mergeIntoThis", { other: d.emails[0] ?? d.name })}
              >
                {t("contacts.mergeEllipsis")}
              </button>
            )}
          </li>
        ))}
      </ul>
      {merging && <MergeDialog from={merging} into={contact} onClose={() => setMerging(null)} />}
    </section>
  );
}

/**
 * "Merge another contact into this one": finds contacts by name or any address (the five best
 * matches of the list's search), each with "Merge…" and the same confirmation.
 */
export function MergeSearch({ contact }: { contact: Contact }) {
  const [q, setQ] = useState("");
  const [merging, setMerging] = useState<Contact | null>(null);
  const term = q.trim();
  const found = useQuery({
    queryKey: contactKeys.mergeSearch(term),
    queryFn: () => api<{ data: Contact[] }>(`/contacts${qs({ q: term, limit: 6 })}`),
    enabled: term.length >= 2,
    staleTime: 10_000,
  });
  const others = (found.data?.data ?? []).filter((c) => c.id !== contact.id).slice(0, 5);
  return (
    <section aria-labelledby="contact-merge-search">
      <h3 id="contact-merge-search">{t("contacts.mergeAnother")}</h3>
      <input
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder={t("contacts.nameOrEmail")}
        aria-label={t("contacts.findContactToMerge")}
      />
      {found.isError && <ErrorBox error={found.error} />}
      {term.length >= 2 && found.isSuccess && others.length === 0 && (
        <p className="muted small">{t("contacts.noOtherMatch")}</p>
      )}
      {others.length > 0 && (
        <ul className="mini-list">
          {others.map((c) => (
            <li key={c.id}>
              <span>
                {personName(c.name, c.email)} <span className="muted">{c.emails.join(", ")}</span>
              </span>
              <button
                type="button"
                className="btn btn-small"
                onClick={() => setMerging(c)}
                aria-label={t("contacts.mergeIntoThis", { other: c.emails[0] ?? c.name })}
              >
                {t("contacts.mergeEllipsis")}
              </button>
            </li>
          ))}
        </ul>
      )}
      {merging && (
        <MergeDialog
          from={merging}
          into={contact}
          onClose={() => {
            setMerging(null);
            setQ("");
          }}
        />
      )}
    </section>
  );
}

function MergeDialog({ from, into, onClose }: { from: Contact; into: Contact; onClose: () => void }) {
  const client = useQueryClient();
  const merge = useMutation({
    mutationFn: () => api<Contact>(`/contacts/${from.id}/merge`, { body: { into_id: into.id } }),
    onSuccess: (saved) => {
      client.setQueryData(contactKeys.one(into.id), saved);
      client.removeQueries({ queryKey: contactKeys.one(from.id) });
      client.invalidateQueries({ queryKey: contactKeys.duplicates(into.id) });
      client.invalidateQueries({ queryKey: contactKeys.lists });
      client.invalidateQueries({ queryKey: ticketKeys.lists });
      client.invalidateQueries({ queryKey: ticketKeys.ofContacts });
      onClose();
    },
  });
  const fromName = personName(from.name, from.email);
  return (
    <Modal title={t("contacts.mergeContacts")} onClose={onClose}>
      <p>
        {tNodes(
          "contacts.mergeQuestion",
          { from: <strong>{fromName}</strong>, into: <strong>{personName(into.name, into.email)}</strong> },
          { emails: from.emails.join(", ") || t("contacts.noEmail") },
        )}
      </p>
      <p className="muted">{t("contacts.mergeExplanation", { count: from.ticket_count, name: fromName })}</p>
      {merge.isError && (
        <div className="form-error" role="alert">
          {errorText(merge.error)}
        </div>
      )}
      <div className="actions">
        <button type="button" className="btn" onClick={onClose}>
          {t("contacts.cancel")}
        </button>
        <button type="button" className="btn btn-danger" disabled={merge.isPending} onClick={() => merge.mutate()}>
          {merge.isPending ? t("contacts.merging") : t("contacts.merge")}
        </button>
      </div>
    </Modal>
  );
}
