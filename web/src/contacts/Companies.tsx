import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, qs } from "../lib/api/client";
import { useCustomFields } from "../lib/resources/custom-fields";
import { canWrite, useRole } from "../lib/api/session";
import type { Company, Contact, Page } from "../lib/api/types";
import { Link } from "../lib/router/Link";
import { navigate } from "../lib/router/router";
import { Avatar, Modal, TagChip, timeAgo } from "../lib/ui/bits";
import { Field, FormError, formValues } from "../lib/ui/form";
import { PictureUpload } from "../lib/ui/PictureUpload";
import { LookUpAgain } from "./LookUpAgain";
import { Empty, ErrorBox, Loading } from "../lib/ui/states";
import { RecordEditor } from "./record-detail";
import { RecordListHead, useRecordList } from "./record-list";
import { companyKeys, contactKeys } from "./contacts.queries";
import { formatNumber, t } from "../lib/i18n/i18n";

export function Companies() {
  const [creating, setCreating] = useState(false);
  const role = useRole();
  const { q, setQ, tag, setTag, list, rows } = useRecordList<Company>("companies");
  return (
    <section className="list-page">
      <RecordListHead
        kind="companies"
        title={t("contacts.companies")}
        newLabel={t("contacts.newCompany")}
        searchPlaceholder={t("contacts.searchCompanies")}
        onCreate={canWrite(role) ? () => setCreating(true) : null}
        filters={{ q, setQ, tag, setTag }}
      />
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title={q || tag ? t("contacts.noCompaniesMatch") : t("contacts.noCompaniesYet")} />
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>{t("contacts.name")}</th>
                <th>{t("contacts.domain")}</th>
                <th>{t("contacts.labels")}</th>
                <th className="num">{t("contacts.contacts")}</th>
                <th>{t("contacts.updated")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id} className="clickable" onClick={() => navigate(`/companies/${c.id}`)}>
                  <td>
                    <span className="cell-name">
                      <Avatar name={c.name} url={c.avatar_url} size={22} />
                      <Link to={`/companies/${c.id}`}>{c.name}</Link>
                    </span>
                  </td>
                  <td>{c.domain}</td>
                  <td>
                    {c.tags.map((t) => (
                      <TagChip key={t.id} tag={t} />
                    ))}
                  </td>
                  <td className="num">{formatNumber(c.contact_count)}</td>
                  <td className="muted">{timeAgo(c.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.hasNextPage && (
            <div className="center">
              <button type="button" className="btn btn-small" onClick={() => list.fetchNextPage()}>
                {t("contacts.loadMore")}
              </button>
            </div>
          )}
        </div>
      )}
      {creating && <NewCompany onClose={() => setCreating(false)} />}
    </section>
  );
}

function NewCompany({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: (body: Record<string, string>) => api<Company>("/companies", { body }),
    onSuccess: (c) => {
      client.invalidateQueries({ queryKey: companyKeys.lists });
      onClose();
      navigate(`/companies/${c.id}`);
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    create.mutate(Object.fromEntries(Object.entries(formValues(e.currentTarget)).filter(([, x]) => x !== "")));
  };
  return (
    <Modal title={t("contacts.newCompany")} onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <Field label={t("contacts.name")} name="name" error={create.error}>
          <input name="name" autoFocus />
        </Field>
        <Field label={t("contacts.domain")} name="domain" error={create.error}>
          <input name="domain" placeholder="example.com" />
        </Field>
        <FormError error={create.error} fields={["name", "domain"]} />
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

export function CompanyDetail({ id }: { id: string }) {
  const client = useQueryClient();
  const role = useRole();
  const fields = useCustomFields("company");
  const company = useQuery({ queryKey: companyKeys.one(id), queryFn: () => api<Company>(`/companies/${id}`) });
  const contacts = useQuery({
    queryKey: contactKeys.ofCompany(id),
    queryFn: () => api<Page<Contact>>(`/contacts${qs({ company_id: id, limit: 100 })}`),
  });
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<Company>(`/companies/${id}`, { method: "PATCH", body }),
    onSuccess: (c) => {
      client.setQueryData(companyKeys.one(id), c);
      client.invalidateQueries({ queryKey: companyKeys.lists });
    },
  });
  if (company.isPending) return <Loading />;
  if (company.isError) return <ErrorBox error={company.error} retry={() => company.refetch()} />;
  const c = company.data;
  return (
    <section className="detail-page">
      <header className="page-head">
        <Link to="/companies" className="muted">
          {t("contacts.companies")}
        </Link>
        <span className="muted">/</span>
        <Avatar name={c.name} url={c.avatar_url} size={28} />
        <h1>{c.name}</h1>
      </header>
      <div className="detail-grid">
        <RecordEditor
          base={[
            { name: "name", label: t("contacts.name"), value: c.name },
            { name: "domain", label: t("contacts.domain"), value: c.domain ?? "" },
            { name: "notes", label: t("contacts.notes"), value: c.notes ?? "", multiline: true },
          ]}
          tags={c.tags}
          kind="companies"
          fields={fields.data ?? []}
          values={c.fields ?? {}}
          save={(b) => save.mutate(b)}
          error={save.error}
          saving={save.isPending}
          readOnly={!canWrite(role)}
        />
        <div>
          <section aria-labelledby="record-picture">
            <h3 id="record-picture">{t("contacts.picture")}</h3>
            <PictureUpload<Company>
              path={`/companies/${id}/avatar`}
              url={c.avatar_url}
              alt={c.name}
              label={t("contacts.uploadPicture")}
              removeLabel={t("contacts.removePicture")}
              empty={t("contacts.noPicture")}
              disabled={!canWrite(role)}
              onSaved={(saved) => {
                client.setQueryData(companyKeys.one(id), saved);
                client.invalidateQueries({ queryKey: companyKeys.lists });
              }}
            />
            {canWrite(role) && (
              <LookUpAgain
                path={`/companies/${id}/avatar/refresh`}
                source={c.avatar_source ?? null}
                hint={t("contacts.logoHint")}
              />
            )}
          </section>
          <h3>{t("contacts.peopleCount", { count: c.contact_count })}</h3>
          {contacts.isPending ? (
            <Loading />
          ) : contacts.isError ? (
            <ErrorBox error={contacts.error} />
          ) : contacts.data.data.length === 0 ? (
            <Empty title={t("contacts.noContacts")} />
          ) : (
            <ul className="mini-list">
              {contacts.data.data.map((p) => (
                <li key={p.id}>
                  <Link to={`/contacts/${p.id}`}>{p.name || p.email}</Link>{" "}
                  <span className="muted small">{p.email}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
