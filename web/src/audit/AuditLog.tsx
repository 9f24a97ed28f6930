import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, qs } from "../lib/api/client";
import type { AuditLog as AuditEntry, Page } from "../lib/api/types";
import { useMembers } from "../lib/resources/members";
import { Empty, ErrorBox, Loading } from "../lib/ui/states";
import { formatDateTime, t } from "../lib/i18n/i18n";

const auditKeys = { list: (filters: object) => ["audit-logs", filters] as const };

/** Entity types Desk records (SPEC.md's audit actions and the settings that log them). */
const ENTITY_TYPES = [
  "workspace",
  "member",
  "invitation",
  "api_key",
  "webhook",
  "team",
  "mailbox",
  "tag",
  "custom_field",
  "user",
  "contact",
  "company",
  "triage",
  "assignment",
  "business_hours",
];

/** An entity type's name ("api key"); a type this app does not know shows as it comes. */
const entityName = (type: string) => t("audit.entityType", { type, spelled: type.replace(/_/g, " ") });

/** A local calendar day's start as an RFC 3339 instant (the API takes instants). */
const dayStart = (day: string, plusDays = 0) => {
  if (!day) return undefined;
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + plusDays);
  return d.toISOString();
};

function actorName(entry: AuditEntry): string {
  if (entry.actor.type === "system") return "Desk";
  if (entry.actor.type === "api_key") return t("audit.apiKeyActor", { id: entry.actor.api_key_id?.slice(0, 8) ?? "" });
  return entry.actor.user?.name ?? t("audit.someone");
}

/** The workspace's audit log (admins): who changed which setting, key, member or webhook, and when. */
export default function AuditLog() {
  const members = useMembers();
  const [filters, setFilters] = useState({ actor: "", action: "", entity: "", from: "", to: "" });
  const set = (key: keyof typeof filters) => (e: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [key]: e.target.value }));
  const badRange = filters.from !== "" && filters.to !== "" && filters.from > filters.to;
  const list = useInfiniteQuery({
    queryKey: auditKeys.list(filters),
    initialPageParam: null as string | null,
    enabled: !badRange,
    queryFn: ({ pageParam }) =>
      api<Page<AuditEntry>>(
        `/audit-logs${qs({
          actor_user_id: filters.actor,
          action: filters.action.trim(),
          entity_type: filters.entity,
          from: dayStart(filters.from),
          // The end day is included: up to the next day's start.
          to: dayStart(filters.to, 1),
          limit: 50,
          cursor: pageParam,
        })}`,
      ),
    getNextPageParam: (p) => p.next_cursor,
  });
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section className="list-page audit-log">
      <header className="page-head">
        <h1>{t("audit.title")}</h1>
      </header>
      <form className="filter-row" onSubmit={(e) => e.preventDefault()} aria-label={t("audit.filterLabel")}>
        <label htmlFor="audit-actor">{t("audit.actor")}</label>
        <select id="audit-actor" value={filters.actor} onChange={set("actor")}>
          <option value="">{t("audit.anyone")}</option>
          {members.data?.map((m) => (
            <option key={m.user.id} value={m.user.id}>
              {m.user.name}
            </option>
          ))}
        </select>
        <label htmlFor="audit-action">{t("audit.action")}</label>
        <input
          id="audit-action"
          type="search"
          value={filters.action}
          onChange={set("action")}
          placeholder={t("audit.actionPlaceholder", { example: "member.role_changed" })}
          list="audit-actions"
        />
        <datalist id="audit-actions">
          {[...new Set(rows.map((r) => r.action))].map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <label htmlFor="audit-entity">{t("audit.entity")}</label>
        <select id="audit-entity" value={filters.entity} onChange={set("entity")}>
          <option value="">{t("audit.anyEntity")}</option>
          {ENTITY_TYPES.map((type) => (
            <option key={type} value={type}>
              {entityName(type)}
            </option>
          ))}
        </select>
        <label htmlFor="audit-from">{t("audit.from")}</label>
        <input id="audit-from" type="date" value={filters.from} onChange={set("from")} />
        <label htmlFor="audit-to">{t("audit.to")}</label>
        <input id="audit-to" type="date" value={filters.to} onChange={set("to")} />
      </form>
      {badRange ? (
        <p className="form-error" role="alert">
          {t("audit.badRange")}
        </p>
      ) : list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title={t("audit.noEntries")}>{t("audit.noMatch")}</Empty>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region keyboard users must reach to scroll
        <section className="table-scroll" tabIndex={0} aria-label={t("audit.entries")}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("audit.when")}</th>
                <th scope="col">{t("audit.actor")}</th>
                <th scope="col">{t("audit.action")}</th>
                <th scope="col">{t("audit.entity")}</th>
                <th scope="col">{t("audit.details")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time>
                  </td>
                  <td>{actorName(r)}</td>
                  <td>
                    <code>{r.action}</code>
                  </td>
                  <td>
                    {entityName(r.entity_type)}
                    {r.entity_id && <span className="muted small"> {r.entity_id.slice(0, 8)}</span>}
                  </td>
                  <td className="audit-data">
                    {Object.keys(r.data).length > 0 && <code>{JSON.stringify(r.data)}</code>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.hasNextPage && (
            <div className="actions">
              <button
                type="button"
                className="btn"
                onClick={() => list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
              >
                {list.isFetchingNextPage ? t("common.loading") : t("common.loadMore")}
              </button>
            </div>
          )}
        </section>
      )}
    </section>
  );
}
