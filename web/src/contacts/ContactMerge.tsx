import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, qs } from "../lib/api/client";
import type { Contact } from "../lib/api/types";
import { personName } from "../lib/people";
import { Modal } from "../lib/ui/bits";
import { ErrorBox, errorText } from "../lib/ui/states";
import { ticketKeys } from "../tickets/tickets.queries";
import { contactKeys } from "./contacts.queries";

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
      <h3 id="contact-duplicates">Possible duplicates</h3>
      <ul className="mini-list">
        {list.map((d) => (
          <li key={d.id}>
            <span>
              {personName(d.name, d.email)} <span className="muted">{d.emails.join(", ")}</span>{" "}
              <span className="muted small">
                {d.ticket_count} {d.ticket_count === 1 ? "ticket" : "tickets"}
              </span>
            </span>
            {canMerge && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => setMerging(d)}
                aria-label={`Merge… ${d.emails[0] ?? d.name} into this contact`}
              >
                Merge…
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
      <h3 id="contact-merge-search">Merge another contact into this one</h3>
      <input
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder="Name or email"
        aria-label="Find a contact to merge"
      />
      {found.isError && <ErrorBox error={found.error} />}
      {term.length >= 2 && found.isSuccess && others.length === 0 && (
        <p className="muted small">No other contact matches.</p>
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
                aria-label={`Merge… ${c.emails[0] ?? c.name} into this contact`}
              >
                Merge…
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
    <Modal title="Merge contacts" onClose={onClose}>
      <p>
        Merge <strong>{fromName}</strong> ({from.emails.join(", ") || "no email"}) into{" "}
        <strong>{personName(into.name, into.email)}</strong>?
      </p>
      <p className="muted">
        {from.ticket_count} {from.ticket_count === 1 ? "ticket" : "tickets"}, its emails, labels, field values and notes
        move to this contact, and {fromName} is deleted. This cannot be undone.
      </p>
      {merge.isError && (
        <div className="form-error" role="alert">
          {errorText(merge.error)}
        </div>
      )}
      <div className="actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" disabled={merge.isPending} onClick={() => merge.mutate()}>
          {merge.isPending ? "Merging…" : "Merge"}
        </button>
      </div>
    </Modal>
  );
}
