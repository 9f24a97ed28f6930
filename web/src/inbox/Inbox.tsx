import { AssistantTips } from "../assistant/AssistantTips";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { api, qs } from "../lib/api/client";
import { t } from "../lib/i18n/i18n";
import { useViews } from "../lib/resources/views";
import { canWrite, useRole } from "../lib/api/session";
import type { Page, Ticket } from "../lib/api/types";
import { navigate } from "../lib/router/router";
import { focusOnControl, typingInField } from "../lib/ui/bits";
import { Empty, ErrorBox, Loading } from "../lib/ui/states";
import { ExportButton } from "../lib/ui/ExportButton";
import { BulkBar } from "./BulkBar";
import { FilterBar, SortSelect } from "./FilterBar";
import {
  activeFilterCount,
  EMPTY_FILTERS,
  folderTitle,
  ticketQuery,
  type TicketFilters,
  viewFiltersFor,
} from "./inbox-filters";
import { NewTicket } from "../tickets/NewTicket";
import { SaveView } from "./SaveView";
import { rememberList } from "../tickets/ticket-data";
import { TicketList } from "./TicketList";
import { ticketKeys } from "../tickets/tickets.queries";

export function Inbox({ folder }: { folder: string }) {
  const [filters, setFilters] = useState<TicketFilters>(EMPTY_FILTERS);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [cursor, setCursor] = useState(0);
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const views = useViews();
  const role = useRole();
  const params = useMemo(() => ticketQuery(folder, filters), [folder, filters]);
  const anchor = useRef<number | null>(null);

  const list = useInfiniteQuery({
    queryKey: ticketKeys.list(params),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api<Page<Ticket>>(`/tickets${qs({ ...params, limit: 50, cursor: pageParam })}`, { signal }),
    getNextPageParam: (last) => last.next_cursor,
    staleTime: 5_000,
  });
  const tickets = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);

  useEffect(() => rememberList(tickets.map((t) => t.number)), [tickets]);

  // Another folder or filter is another list: it starts with nothing selected and the cursor on
  // top, from its first render (React's "adjust state when a prop changes").
  const [listFor, setListFor] = useState(params);
  if (listFor !== params) {
    setListFor(params);
    setSelected(new Set());
    setCursor(0);
  }

  const toggle = useCallback(
    (id: string, range: boolean) => {
      setSelected((prev) => {
        const next = new Set(prev);
        const index = tickets.findIndex((t) => t.id === id);
        if (range && anchor.current !== null) {
          const [a, b] = [Math.min(anchor.current, index), Math.max(anchor.current, index)];
          for (let i = a; i <= b; i++) next.add(tickets[i].id);
        } else if (next.has(id)) next.delete(id);
        else next.add(id);
        anchor.current = index;
        return next;
      });
    },
    [tickets],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingInField() || e.metaKey || e.ctrlKey || e.altKey) return;
      // Enter on a focused button, link or checkbox is that control's own action.
      if (e.key === "Enter" && focusOnControl()) return;
      if (e.key === "j") setCursor((c) => Math.min(tickets.length - 1, c + 1));
      else if (e.key === "k") setCursor((c) => Math.max(0, c - 1));
      else if ((e.key === "Enter" || e.key === "o") && tickets[cursor]) navigate(`/tickets/${tickets[cursor].number}`);
      else if (e.key === "x" && tickets[cursor]) toggle(tickets[cursor].id, false);
      else if (e.key === "/") {
        e.preventDefault();
        document.querySelector<HTMLInputElement>("#ticket-search")?.focus();
      } else if (e.key === "c" && canWrite(role)) setCreating(true);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [tickets, cursor, toggle, role]);

  const loadMore = useCallback(() => {
    if (list.hasNextPage && !list.isFetchingNextPage) list.fetchNextPage();
  }, [list]);

  const title = folder.startsWith("view:")
    ? (views.data?.find((v) => `view:${v.id}` === folder)?.name ?? t("inbox.viewFallback"))
    : folderTitle(folder);
  return (
    <section className="inbox">
      <header className="page-head">
        <h1>{title}</h1>
        <span className="muted small">
          {list.isSuccess
            ? t(list.hasNextPage ? "inbox.ticketCountMore" : "inbox.ticketCount", { count: tickets.length })
            : ""}
        </span>
        <div className="grow" />
        <SortSelect filters={filters} onChange={setFilters} />
        <ExportButton path={`/tickets/export.csv${qs(params)}`} filename="tickets.csv" />
        {canWrite(role) && (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => setCreating(true)}
            title={t("inbox.newTicketShortcut")}
          >
            {t("inbox.newTicket")}
          </button>
        )}
      </header>
      <AssistantTips />
      <FilterBar filters={filters} onChange={setFilters} onSaveView={() => setSaving(true)} />
      {selected.size > 0 && (
        <BulkBar
          ids={[...selected]}
          onDone={() => setSelected(new Set())}
          onSelectAll={() => setSelected(new Set(tickets.map((t) => t.id)))}
        />
      )}
      {list.isPending ? (
        <Loading label={t("inbox.loadingTickets")} />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : tickets.length === 0 ? (
        <Empty
          title={activeFilterCount(filters) === 0 && !filters.q.trim() ? t("inbox.emptyTitle") : t("inbox.noMatch")}
        >
          {folder === "unassigned"
            ? t("inbox.emptyUnassigned")
            : folder === "following"
              ? t("inbox.emptyFollowing")
              : t("inbox.emptyDefault")}
        </Empty>
      ) : (
        <TicketList
          tickets={tickets}
          cursor={cursor}
          selected={selected}
          onToggle={toggle}
          onCursor={setCursor}
          onNearEnd={loadMore}
          hasMore={!!list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
        />
      )}
      {creating && <NewTicket onClose={() => setCreating(false)} />}
      {saving && (
        <SaveView
          filters={viewFiltersFor(folder, filters, views.data?.find((v) => `view:${v.id}` === folder)?.filters)}
          dropped={[
            ...(filters.severity.length ? [t("inbox.droppedSeverity")] : []),
            ...(folder === "spam" ? [t("inbox.droppedSpam")] : []),
            ...(folder === "snoozed" ? [t("inbox.droppedSnoozed")] : []),
            ...(folder === "following" ? [t("inbox.droppedFollowing")] : []),
            ...(filters.sort !== EMPTY_FILTERS.sort || filters.order !== EMPTY_FILTERS.order
              ? [t("inbox.droppedSort")]
              : []),
          ]}
          onClose={() => setSaving(false)}
        />
      )}
    </section>
  );
}

/** Patches tickets through POST /v1/tickets/bulk and refreshes lists and counts. */
export function useBulk(onDone: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: string[]; patch?: Record<string, unknown>; delete?: true }) =>
      api<{ updated: number }>("/tickets/bulk", { body }),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: ticketKeys.lists });
      client.invalidateQueries({ queryKey: ticketKeys.counts });
      onDone();
    },
  });
}
