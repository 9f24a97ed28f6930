import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, qs } from "../lib/api/client";
import { useTags } from "../lib/resources/labels";
import { ExportButton } from "../lib/ui/ExportButton";
import type { Page } from "../lib/api/types";
import { companyKeys, contactKeys } from "./contacts.queries";
import { t } from "../lib/i18n/i18n";

type RecordKind = "contacts" | "companies";

/** Search, label filter and keyset pages, shared by the contacts and companies lists. */
export function useRecordList<T>(kind: RecordKind) {
  const [q, setQ] = useState("");
  const [tag, setTag] = useState("");
  const list = useInfiniteQuery({
    queryKey: (kind === "contacts" ? contactKeys : companyKeys).list(q, tag),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => api<Page<T>>(`/${kind}${qs({ q, tag, limit: 50, cursor: pageParam })}`),
    getNextPageParam: (p) => p.next_cursor,
  });
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  return { q, setQ, tag, setTag, list, rows };
}

type HeadProps = {
  kind: RecordKind;
  title: string;
  newLabel: string;
  searchPlaceholder: string;
  onCreate: (() => void) | null;
  filters: Pick<ReturnType<typeof useRecordList>, "q" | "setQ" | "tag" | "setTag">;
};

/** The page title, "Export CSV" (of what the filters show), the "New" button and the search and label filters above a record list. */
export function RecordListHead({ kind, title, newLabel, searchPlaceholder, onCreate, filters }: HeadProps) {
  const tags = useTags();
  return (
    <>
      <header className="page-head">
        <h1>{title}</h1>
        <div className="grow" />
        <ExportButton path={`/${kind}/export.csv${qs({ q: filters.q, tag: filters.tag })}`} filename={`${kind}.csv`} />
        {onCreate && (
          <button type="button" className="btn btn-primary" onClick={onCreate}>
            {newLabel}
          </button>
        )}
      </header>
      <div className="filter-bar">
        <input
          className="search"
          type="search"
          placeholder={searchPlaceholder}
          aria-label={kind === "contacts" ? t("contacts.searchContactsLabel") : t("contacts.searchCompaniesLabel")}
          value={filters.q}
          onChange={(e) => filters.setQ(e.target.value)}
        />
        <select
          aria-label={t("contacts.labelFilter")}
          value={filters.tag}
          onChange={(e) => filters.setTag(e.target.value)}
        >
          <option value="">{t("contacts.anyLabel")}</option>
          {tags.data
            ?.filter((t) => t.applies_to.includes(kind))
            .map((t) => (
              <option key={t.id} value={t.name}>
                {t.name}
              </option>
            ))}
        </select>
      </div>
    </>
  );
}
