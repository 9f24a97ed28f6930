import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api } from "../lib/api/client";
import { listOf } from "../lib/api/queries";
import type { Contact, Page } from "../lib/api/types";
import { useDismiss } from "../lib/ui/layers";
import { contactKeys } from "../contacts/contacts.queries";
import { t } from "../lib/i18n/i18n";

/** What the server accepts as one address (its own check is stricter): no spaces, no display names, one @. */
const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;
const SUGGESTIONS = 6;

/** Contacts whose name or email matches what is typed, as addresses to pick. */
function useContactSuggestions(query: string) {
  const q = query.trim();
  return useQuery({
    queryKey: contactKeys.suggestions(q),
    queryFn: async () =>
      listOf(await api<Contact[] | Page<Contact>>(`/contacts?limit=${SUGGESTIONS}&q=${encodeURIComponent(q)}`)),
    enabled: q.length >= 2,
    staleTime: 30_000,
  });
}

/**
 * Email recipients as removable chips with an input that suggests contacts: an ARIA 1.2 combobox
 * (the input owns the focus, the active option is named by aria-activedescendant). Enter, comma or
 * Tab commits a typed address; arrows move through the suggestions; Esc closes them.
 */
export function RecipientsField({
  label,
  value,
  onChange,
  exclude = [],
  disabled,
}: {
  label: string;
  value: string[];
  onChange: (next: string[]) => void;
  /** Addresses already elsewhere (the contact, the other lists): not offered again. */
  exclude?: string[];
  disabled?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const [invalid, setInvalid] = useState<string | null>(null);
  const found = useContactSuggestions(text);
  const taken = new Set([...value, ...exclude].map((a) => a.toLowerCase()));
  const options = (found.data ?? [])
    .flatMap((c) => (c.email ? [{ contact: c, email: c.email }] : []))
    .filter((o) => !taken.has(o.email.toLowerCase()))
    .slice(0, SUGGESTIONS);
  const expanded = open && options.length > 0 && text.trim().length >= 2;
  useDismiss(() => setOpen(false), expanded);

  const add = (address: string) => {
    const clean = address.trim().replace(/[,;]+$/, "");
    if (!clean) return true;
    if (!ADDRESS.test(clean)) {
      setInvalid(clean);
      return false;
    }
    if (!taken.has(clean.toLowerCase())) onChange([...value, clean]);
    setText("");
    setInvalid(null);
    setActive(0);
    return true;
  };
  const listId = `${id}-options`;
  const optionId = (i: number) => `${id}-option-${i}`;
  const current = Math.min(active, options.length - 1);

  return (
    <div className={`recipients${invalid ? " field-invalid" : ""}`}>
      <label className="recipients-label" htmlFor={`${id}-input`}>
        {label}
      </label>
      <div className="recipients-box">
        {value.map((address) => (
          <span key={address} className="chip recipient-chip">
            {address}
            <button
              type="button"
              className="chip-x"
              aria-label={t("tickets.removeRecipient", { address, field: label })}
              disabled={disabled}
              onClick={() => onChange(value.filter((a) => a !== address))}
            >
              ×
            </button>
          </span>
        ))}
        <input
          id={`${id}-input`}
          type="email"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded ? optionId(current) : undefined}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? `${id}-error` : undefined}
          autoComplete="off"
          disabled={disabled}
          value={text}
          placeholder={value.length ? "" : "name@example.com"}
          onChange={(e) => {
            const next = e.target.value;
            // A pasted or typed separator commits what came before it.
            if (/[,;]\s*$/.test(next) && add(next)) return;
            setText(next);
            setOpen(true);
            setActive(0);
            setInvalid(null);
          }}
          onBlur={() => {
            if (text.trim()) add(text);
            setOpen(false);
          }}
          onKeyDown={(e) => {
            if (expanded && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
              e.preventDefault();
              setActive((i) => (i + (e.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
              return;
            }
            if (e.key === "Enter" || (e.key === "Tab" && text.trim())) {
              if (!text.trim() && e.key === "Enter") return;
              e.preventDefault();
              if (expanded) add(options[current]!.email);
              else add(text);
              return;
            }
            if (e.key === "Backspace" && !text && value.length) onChange(value.slice(0, -1));
          }}
        />
      </div>
      {invalid && (
        <span className="field-error" id={`${id}-error`} role="alert">
          {t("tickets.notAnAddress", { address: invalid })}
        </span>
      )}
      <div
        className="suggest"
        id={listId}
        role="listbox"
        aria-label={t("tickets.recipientSuggestions", { field: label })}
        hidden={!expanded}
      >
        {expanded &&
          options.map((o, i) => (
            <div
              key={`${o.contact.id}-${o.email}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              className={i === current ? "active" : ""}
              onMouseDown={(e) => {
                e.preventDefault();
                add(o.email);
              }}
            >
              {o.contact.name ? (
                <>
                  {o.contact.name} <span className="muted small">{o.email}</span>
                </>
              ) : (
                o.email
              )}
            </div>
          ))}
      </div>
    </div>
  );
}
