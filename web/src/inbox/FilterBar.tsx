import { useEffect, useState } from "react";
import { useCustomFields } from "../lib/resources/custom-fields";
import { useMembers } from "../lib/resources/members";
import { useTags } from "../lib/resources/labels";
import { useTeams } from "../lib/resources/teams";
import { useAuth } from "../lib/api/session";
import {
  CHANNELS,
  type Channel,
  PRIORITIES,
  type Priority,
  SEVERITIES,
  type Severity,
  STATUSES,
  type TicketStatus,
} from "../lib/api/types";
import { statusLabel } from "../lib/ui/bits";
import { t } from "../lib/i18n/i18n";
import { MultiPick } from "../lib/ui/MultiPick";
import { describeCondition } from "./field-filters";
import { FieldFilterPicker } from "./FieldFilterPicker";
import { activeFilterCount, clearedFilters, type TicketFilters } from "./inbox-filters";

// Built per render: the labels follow the active language.
const statusOptions = () => STATUSES.map((s) => ({ value: s, label: statusLabel(s) }));
const priorityOptions = () => PRIORITIES.map((p) => ({ value: p, label: statusLabel(p) }));
const severityOptions = (): Array<{ value: Severity | "none"; label: string }> => [
  // SEV1…SEV4 are the same codes in every language.
  ...SEVERITIES.map((s) => ({ value: s, label: s.toUpperCase() })),
  { value: "none", label: t("inbox.noSeverity") },
];

/** Search, filters and sort for the ticket list; status, priority and severity take several values. */
export function FilterBar({
  filters,
  onChange,
  onSaveView,
}: {
  filters: TicketFilters;
  onChange: (f: TicketFilters) => void;
  onSaveView?: () => void;
}) {
  const members = useMembers();
  const teams = useTeams();
  const tags = useTags();
  const fields = useCustomFields("ticket");
  const auth = useAuth();
  const [q, setQ] = useState(filters.q);
  const set = (patch: Partial<TicketFilters>) => onChange({ ...filters, ...patch });

  // Search as you type, without a request per key.
  useEffect(() => {
    const timer = setTimeout(() => q !== filters.q && onChange({ ...filters, q }), 250);
    return () => clearTimeout(timer);
  }, [q, filters, onChange]);

  const active = activeFilterCount(filters);
  const fieldList = fields.data ?? [];

  return (
    <div className="filter-bar">
      <input
        id="ticket-search"
        className="search"
        type="search"
        placeholder={t("inbox.searchPlaceholder")}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        aria-label={t("inbox.searchTickets")}
      />
      <MultiPick
        label={t("inbox.status")}
        anyLabel={t("inbox.anyStatus")}
        options={statusOptions()}
        value={filters.status}
        onChange={(status: TicketStatus[]) => set({ status })}
      />
      <MultiPick
        label={t("inbox.priority")}
        anyLabel={t("inbox.anyPriority")}
        options={priorityOptions()}
        value={filters.priority}
        onChange={(priority: Priority[]) => set({ priority })}
      />
      <MultiPick
        label={t("inbox.severity")}
        anyLabel={t("inbox.anySeverity")}
        options={severityOptions()}
        value={filters.severity}
        onChange={(severity) => set({ severity })}
      />
      <select
        aria-label={t("inbox.assigneeFilter")}
        value={filters.assignee}
        onChange={(e) => set({ assignee: e.target.value })}
      >
        <option value="">{t("inbox.anyone")}</option>
        <option value="me">{t("inbox.me")}</option>
        <option value="none">{t("inbox.unassigned")}</option>
        {members.data?.map((m) => (
          <option key={m.user.id} value={m.user.id}>
            {m.user.name}
          </option>
        ))}
      </select>
      {!!teams.data?.length && (
        <select
          aria-label={t("inbox.teamFilter")}
          value={filters.team_id}
          onChange={(e) => set({ team_id: e.target.value })}
        >
          <option value="">{t("inbox.anyTeam")}</option>
          {teams.data.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      )}
      <select aria-label={t("inbox.labelFilter")} value={filters.tag} onChange={(e) => set({ tag: e.target.value })}>
        <option value="">{t("inbox.anyLabel")}</option>
        {tags.data
          ?.filter((t) => t.applies_to.includes("tickets"))
          .map((t) => (
            <option key={t.id} value={t.name}>
              {t.name}
            </option>
          ))}
      </select>
      <select
        aria-label={t("inbox.channelFilter")}
        value={filters.channel}
        onChange={(e) => set({ channel: e.target.value as Channel | "" })}
      >
        <option value="">{t("inbox.anyChannel")}</option>
        {CHANNELS.map((c) => (
          <option key={c} value={c}>
            {statusLabel(c)}
          </option>
        ))}
      </select>
      {filters.fields.map((c, i) => (
        // Field and operator name a condition: adding one replaces the condition it repeats.
        <span key={`${c.key}:${c.op}`} className="filter-chip" data-testid="field-condition">
          {describeCondition(
            c,
            fieldList.find((f) => f.key === c.key),
            members.data,
            auth.user?.id,
          )}
          <button
            type="button"
            className="chip-x"
            aria-label={t("inbox.removeFilter", { key: c.key, op: c.op })}
            onClick={() => set({ fields: filters.fields.filter((_, j) => j !== i) })}
          >
            ×
          </button>
        </span>
      ))}
      <FieldFilterPicker
        fields={fieldList}
        onAdd={(added) =>
          set({
            fields: [...filters.fields.filter((c) => !added.some((a) => a.key === c.key && a.op === c.op)), ...added],
          })
        }
      />
      <div className="grow" />
      {active > 0 && (
        <button
          type="button"
          className="btn btn-small btn-ghost"
          onClick={() => onChange(clearedFilters(filters))}
          title={t("inbox.clearFilterValues", { count: active })}
        >
          {t("inbox.clearFilters")}
        </button>
      )}
      {onSaveView && (active > 0 || filters.q.trim() !== "") && (
        <button type="button" className="btn btn-small" onClick={onSaveView}>
          {t("inbox.saveAsView")}
        </button>
      )}
    </div>
  );
}

/** Sort order of the ticket list (shown in the page head, beside the count). */
export function SortSelect({ filters, onChange }: { filters: TicketFilters; onChange: (f: TicketFilters) => void }) {
  const fields = useCustomFields("ticket");
  const fieldList = fields.data ?? [];
  const set = (patch: Partial<TicketFilters>) => onChange({ ...filters, ...patch });
  return (
    <select
      className="sort-select"
      aria-label={t("inbox.sort")}
      value={`${filters.sort}:${filters.order}`}
      onChange={(e) => {
        const [sort, order] = e.target.value.split(":");
        set({ sort, order: order as "asc" | "desc" });
      }}
    >
      <option value="last_message_at:desc">{t("inbox.sortNewestActivity")}</option>
      <option value="last_message_at:asc">{t("inbox.sortOldestActivity")}</option>
      <option value="created_at:desc">{t("inbox.sortNewestCreated")}</option>
      <option value="created_at:asc">{t("inbox.sortOldestCreated")}</option>
      <option value="priority:desc">{t("inbox.priority")}</option>
      <option value="severity:asc">{t("inbox.severity")}</option>
      <option value="due:asc">{t("inbox.sortDueSoonest")}</option>
      {fieldList
        .filter((f) => ["text", "number", "date", "checkbox", "select"].includes(f.type))
        .map((f) => (
          <option key={f.id} value={`field.${f.key}:desc`}>
            {f.name}
          </option>
        ))}
    </select>
  );
}
