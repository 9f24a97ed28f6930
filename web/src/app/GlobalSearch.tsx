import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState } from "react";
import { api } from "../lib/api/client";
import type { Company, Page, SearchResults } from "../lib/api/types";
import { navigate } from "../lib/router/router";
import { Modal, StatusPill } from "../lib/ui/bits";
import { t } from "../lib/i18n/i18n";

const searchKeys = {
  everything: (q: string) => ["global-search", q] as const,
  companies: (q: string) => ["global-search-companies", q] as const,
};

type Group = "tickets" | "contacts" | "companies" | "articles";
type Hit = { key: string; group: Group; href: string; title: string; detail: string; status?: string };

const groupLabel = (group: Group) =>
  group === "tickets"
    ? t("app.groupTickets")
    : group === "contacts"
      ? t("app.groupContacts")
      : group === "companies"
        ? t("app.groupCompanies")
        : t("app.groupArticles");

// An article's status is a value of the API; its label is the language's, an unknown one shown as sent.
const articleStatus = (status: string) =>
  status === "published" ? t("app.articlePublished") : status === "draft" ? t("app.articleDraft") : status;

const asText = (value: unknown) => (typeof value === "string" ? value : "");

/** Search results flattened in display order: tickets, contacts, companies, then articles when the API has them. */
function hitsOf(results: SearchResults | undefined, companies: Company[] | undefined): Hit[] {
  const hits: Hit[] = [];
  for (const ticket of results?.tickets ?? [])
    hits.push({
      key: `t-${ticket.id}`,
      group: "tickets",
      href: `/tickets/${ticket.number}`,
      title: `#${ticket.number} ${ticket.subject}`,
      detail: ticket.contact?.email ?? ticket.contact?.name ?? "",
      status: ticket.status,
    });
  for (const c of results?.contacts ?? []) {
    const id = asText(c.id);
    if (!id) continue;
    hits.push({
      key: `c-${id}`,
      group: "contacts",
      href: `/contacts/${id}`,
      title: asText(c.name) || asText(c.email),
      detail: asText(c.email),
    });
  }
  for (const c of companies ?? [])
    hits.push({
      key: `co-${c.id}`,
      group: "companies",
      href: `/companies/${c.id}`,
      title: c.name,
      detail: c.domain ?? "",
    });
  for (const a of results?.articles ?? []) {
    if (!a || typeof a !== "object") continue;
    const article = a as Record<string, unknown>;
    const id = asText(article.id);
    if (!id) continue;
    hits.push({
      key: `a-${id}`,
      group: "articles",
      href: `/kb/articles/${id}`,
      title: asText(article.title),
      detail: articleStatus(asText(article.status)),
    });
  }
  return hits;
}

/**
 * Search across tickets, contacts, companies (and articles once the knowledge base answers them in
 * GET /v1/search): a combobox whose options are links; arrows move, Enter opens, Esc closes.
 */
export default function GlobalSearch({ onClose }: { onClose: () => void }) {
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 150);
    return () => clearTimeout(timer);
  }, [text]);
  const search = useQuery({
    queryKey: searchKeys.everything(q),
    queryFn: () => api<SearchResults>(`/search?q=${encodeURIComponent(q)}`),
    enabled: q.length > 0,
    staleTime: 10_000,
  });
  const companies = useQuery({
    queryKey: searchKeys.companies(q),
    queryFn: () => api<Page<Company>>(`/companies?limit=5&q=${encodeURIComponent(q)}`),
    enabled: q.length > 0,
    staleTime: 10_000,
    // A viewer key without contacts:read still searches tickets.
    retry: false,
  });
  const hits = useMemo(() => (q ? hitsOf(search.data, companies.data?.data) : []), [q, search.data, companies.data]);
  const current = Math.min(active, Math.max(0, hits.length - 1));
  const open = (hit: Hit | undefined) => {
    if (!hit) return;
    onClose();
    navigate(hit.href);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setActive((current + 1) % Math.max(1, hits.length));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((current - 1 + hits.length) % Math.max(1, hits.length));
    } else if (e.key === "Enter") {
      e.preventDefault();
      open(hits[current]);
    }
  };
  const groups = [...new Set(hits.map((h) => h.group))];
  const pending = q.length > 0 && (search.isPending || companies.isPending);
  return (
    <Modal title={t("app.search")} onClose={onClose} wide>
      <div className="global-search">
        <input
          // biome-ignore lint/a11y/noAutofocus: the dialog opens to type a search
          autoFocus
          type="search"
          role="combobox"
          aria-label={t("app.searchLabel")}
          aria-expanded={hits.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={hits.length ? `${listId}-${hits[current]!.key}` : undefined}
          placeholder={t("app.searchPlaceholder")}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <div className="muted small" aria-live="polite">
          {q === ""
            ? t("app.searchHelp")
            : pending
              ? t("app.searching")
              : search.isError
                ? t("app.searchFailed")
                : hits.length === 0
                  ? t("app.nothingFound")
                  : t("app.resultCount", { count: hits.length })}
        </div>
        <div id={listId} role="listbox" aria-label={t("app.results")} className="global-search-results">
          {groups.map((group) => (
            // biome-ignore lint/a11y/useSemanticElements: an ARIA group of options inside a listbox, not a form fieldset
            <div key={group} role="group" aria-labelledby={`${listId}-g-${group}`}>
              <div id={`${listId}-g-${group}`} className="global-search-group" role="presentation">
                {groupLabel(group)}
              </div>
              {hits
                .filter((h) => h.group === group)
                .map((hit) => {
                  const index = hits.indexOf(hit);
                  return (
                    <div
                      key={hit.key}
                      id={`${listId}-${hit.key}`}
                      role="option"
                      aria-selected={index === current}
                      tabIndex={-1}
                      className={`global-search-hit${index === current ? " active" : ""}`}
                      onMouseMove={() => setActive(index)}
                      onClick={() => open(hit)}
                      onKeyDown={(e) => e.key === "Enter" && open(hit)}
                    >
                      <span className="global-search-title">{hit.title}</span>
                      {hit.status && <StatusPill status={hit.status as Parameters<typeof StatusPill>[0]["status"]} />}
                      {hit.detail && <span className="muted small">{hit.detail}</span>}
                    </div>
                  );
                })}
            </div>
          ))}
        </div>
      </div>
    </Modal>
  );
}
