import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../lib/api/client";
import { useContactTickets } from "../tickets/tickets.queries";
import { useCustomFields } from "../lib/resources/custom-fields";
import { canWrite, useRole } from "../lib/api/session";
import type { Company, Contact, Page } from "../lib/api/types";
import { Link } from "../lib/router/Link";
import { navigate } from "../lib/router/router";
import { Avatar, Modal, StatusPill, TagChip, timeAgo } from "../lib/ui/bits";
import { Field, FormError, formValues } from "../lib/ui/form";
import { PictureUpload } from "../lib/ui/PictureUpload";
import { LookUpAgain } from "./LookUpAgain";
import { Empty, ErrorBox, errorText, Loading } from "../lib/ui/states";
import { RecordEditor } from "./record-detail";
import { ContactEmails } from "./ContactEmails";
import { ContactLanguage } from "./ContactLanguage";
import { ContactDuplicates, MergeSearch } from "./ContactMerge";
import { RecordListHead, useRecordList } from "./record-list";
import { personName } from "../lib/people";
import { listOf } from "../lib/api/queries";
import { companyKeys, contactKeys } from "./contacts.queries";
import { formatNumber, t } from "../lib/i18n/i18n";

export function Contacts() {
  const [creating, setCreating] = useState(false);
  const role = useRole();
  const { q, setQ, tag, setTag, list, rows } = useRecordList<Contact>("contacts");
  return (
    <section className="list-page">
      <RecordListHead
        kind="contacts"
        title={t("contacts.contacts")}
        newLabel={t("contacts.newContact")}
        searchPlaceholder={t("contacts.searchContacts")}
        onCreate={canWrite(role) ? () => setCreating(true) : null}
        filters={{ q, setQ, tag, setTag }}
      />
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title={q || tag ? t("contacts.noContactsMatch") : t("contacts.noContactsYet")}>
          {t("contacts.contactsCreatedHint")}
        </Empty>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>{t("contacts.name")}</th>
                <th>{t("contacts.email")}</th>
                <th>{t("contacts.company")}</th>
                <th>{t("contacts.labels")}</th>
                <th className="num">{t("contacts.tickets")}</th>
                <th>{t("contacts.updated")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id} onClick={() => navigate(`/contacts/${c.id}`)} className="clickable">
                  <td>
                    <span className="cell-name">
                      <Avatar name={personName(c.name, c.email)} url={c.avatar_url} size={22} />
                      <Link to={`/contacts/${c.id}`}>{personName(c.name, c.email)}</Link>
                      {c.blocked && <span className="pill pill-spam">{t("contacts.blocked")}</span>}
                    </span>
                  </td>
                  <td>{c.email}</td>
                  <td>{c.company?.name}</td>
                  <td>
                    {c.tags.map((t) => (
                      <TagChip key={t.id} tag={t} />
                    ))}
                  </td>
                  <td className="num">{formatNumber(c.ticket_count)}</td>
                  <td className="muted">{timeAgo(c.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.hasNextPage && (
            <div className="center">
              <button
                type="button"
                className="btn btn-small"
                onClick={() => list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
              >
                {t("contacts.loadMore")}
              </button>
            </div>
          )}
        </div>
      )}
      {creating && <NewContact onClose={() => setCreating(false)} />}
    </section>
  );
}

function NewContact({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: (body: Record<string, string>) => api<Contact>("/contacts", { body }),
    onSuccess: (c) => {
      client.invalidateQueries({ queryKey: contactKeys.lists });
      onClose();
      navigate(`/contacts/${c.id}`);
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    create.mutate(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== "")));
  };
  return (
    <Modal title={t("contacts.newContact")} onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <Field label={t("contacts.name")} name="name" error={create.error}>
          <input name="name" autoFocus />
        </Field>
        <Field label={t("contacts.email")} name="email" error={create.error}>
          <input name="email" type="email" />
        </Field>
        <Field label={t("contacts.phone")} name="phone" error={create.error}>
          <input name="phone" />
        </Field>
        <FormError error={create.error} fields={["name", "email", "phone"]} />
        <div className="actions">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            {t("contacts.cancel")}
          </button>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {t("contacts.create")}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function ContactDetail({ id }: { id: string }) {
  const client = useQueryClient();
  const role = useRole();
  const fields = useCustomFields("contact");
  const contact = useQuery({ queryKey: contactKeys.one(id), queryFn: () => api<Contact>(`/contacts/${id}`) });
  const tickets = useContactTickets(id);
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<Contact>(`/contacts/${id}`, { method: "PATCH", body }),
    onSuccess: (c) => {
      client.setQueryData(contactKeys.one(id), c);
      client.invalidateQueries({ queryKey: contactKeys.lists });
    },
  });
  if (contact.isPending) return <Loading />;
  if (contact.isError) return <ErrorBox error={contact.error} retry={() => contact.refetch()} />;
  const c = contact.data;
  return (
    <section className="detail-page">
      <header className="page-head">
        <Link to="/contacts" className="muted">
          {t("contacts.contacts")}
        </Link>
        <span className="muted">/</span>
        <Avatar name={personName(c.name, c.email)} url={c.avatar_url} size={28} />
        <h1>{personName(c.name, c.email)}</h1>
        {c.company && (
          <Link to={`/companies/${c.company.id}`} className="muted">
            {c.company.name}
          </Link>
        )}
      </header>
      <div className="detail-grid">
        <RecordEditor
          base={[
            { name: "name", label: t("contacts.name"), value: c.name },
            { name: "phone", label: t("contacts.phone"), value: c.phone ?? "" },
            { name: "notes", label: t("contacts.notes"), value: c.notes ?? "", multiline: true },
          ]}
          tags={c.tags}
          kind="contacts"
          fields={fields.data ?? []}
          values={c.fields ?? {}}
          save={(b) => save.mutate(b)}
          error={save.error}
          saving={save.isPending}
          readOnly={!canWrite(role)}
        >
          <ContactEmails contact={c} readOnly={!canWrite(role)} />
          <CompanyPicker
            current={c.company ?? null}
            disabled={!canWrite(role) || save.isPending}
            onPick={(companyId) => save.mutate({ company_id: companyId })}
          />
          <ContactLanguage
            locale={c.locale ?? null}
            disabled={!canWrite(role) || save.isPending}
            onPick={(locale) => save.mutate({ locale })}
          />
          {canWrite(role) && (
            <label className="check">
              <input type="checkbox" checked={c.blocked} onChange={(e) => save.mutate({ blocked: e.target.checked })} />{" "}
              {t("contacts.blockedHint")}
            </label>
          )}
        </RecordEditor>
        <div>
          <ContactDuplicates contact={c} canMerge={canWrite(role)} />
          {canWrite(role) && <MergeSearch contact={c} />}
          <section aria-labelledby="record-picture">
            <h3 id="record-picture">{t("contacts.picture")}</h3>
            <PictureUpload<Contact>
              path={`/contacts/${id}/avatar`}
              url={c.avatar_url}
              alt={c.name || c.email || t("contacts.contact")}
              label={t("contacts.uploadPicture")}
              removeLabel={t("contacts.removePicture")}
              empty={t("contacts.noPicture")}
              disabled={!canWrite(role)}
              onSaved={(saved) => {
                client.setQueryData(contactKeys.one(id), saved);
                client.invalidateQueries({ queryKey: contactKeys.lists });
              }}
            />
            {canWrite(role) && c.email && (
              <LookUpAgain
                path={`/contacts/${id}/avatar/refresh`}
                source={c.avatar_source ?? null}
                hint={t("contacts.gravatarHint")}
              />
            )}
          </section>
          <h3>{t("contacts.ticketsCount", { count: c.ticket_count })}</h3>
          {tickets.isPending ? (
            <Loading />
          ) : tickets.isError ? (
            <ErrorBox error={tickets.error} />
          ) : tickets.data.length === 0 ? (
            <Empty title={t("contacts.noTickets")} />
          ) : (
            <ul className="mini-list" aria-label={t("contacts.tickets")}>
              {tickets.data.map((t) => (
                <li key={t.id}>
                  <Link to={`/tickets/${t.number}`}>
                    #{t.number} {t.subject}
                  </Link>{" "}
                  <StatusPill status={t.status} /> <span className="muted small">{timeAgo(t.last_message_at)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

/**
 * The contact's company, picked from the workspace's companies by name (the 100 newest; typing in
 * the list jumps to a name). Changing it saves at once; "No company" clears it.
 */
function CompanyPicker({
  current,
  disabled,
  onPick,
}: {
  current: { id: string; name: string } | null;
  disabled: boolean;
  onPick: (companyId: string | null) => void;
}) {
  const companies = useQuery({
    queryKey: companyKeys.picker,
    queryFn: async () => listOf(await api<Company[] | Page<Company>>("/companies?limit=100")),
    staleTime: 30_000,
  });
  const options = [...(companies.data ?? [])];
  if (current && !options.some((o) => o.id === current.id)) options.push({ ...current } as Company);
  options.sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div className="field">
      <label htmlFor="contact-company">{t("contacts.company")}</label>
      <select
        id="contact-company"
        value={current?.id ?? ""}
        disabled={disabled}
        onChange={(e) => onPick(e.target.value || null)}
      >
        <option value="">{t("contacts.noCompany")}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {companies.isError && <div className="muted small">{errorText(companies.error)}</div>}
    </div>
  );
}
