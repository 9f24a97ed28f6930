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
import { MultiPick } from "../lib/ui/MultiPick";
import { describeCondition } from "./field-filters";
import { FieldFilterPicker } from "./FieldFilterPicker";
import { activeFilterCount, clearedFilters, type TicketFilters } from "./inbox-filters";

const STATUS_OPTIONS = STATUSES.map((s) => ({ value: s, label: statusLabel(s) }));
const PRIORITY_OPTIONS = PRIORITIES.map((p) => ({ value: p, label: statusLabel(p) }));
const SEVERITY_OPTIONS: Array<{ value: Severity | "none"; label: string }> = [
  ...SEVERITIES.map((s) => ({ value: s, label: s.toUpperCase() })),
  { value: "none", label: "No severity" },
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
        placeholder="Search tickets  /"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        aria-label="Search tickets"
      />
      <MultiPick
        label="Status"
        anyLabel="Any status"
        options={STATUS_OPTIONS}
        value={filters.status}
        onChange={(status: TicketStatus[]) => set({ status })}
      />
      <MultiPick
        label="Priority"
        anyLabel="Any priority"
        options={PRIORITY_OPTIONS}
        value={filters.priority}
        onChange={(priority: Priority[]) => set({ priority })}
      />
      <MultiPick
        label="Severity"
        anyLabel="Any severity"
        options={SEVERITY_OPTIONS}
        value={filters.severity}
        onChange={(severity) => set({ severity })}
      />
      <select aria-label="Assignee filter" value={filters.assignee} onChange={(e) => set({ assignee: e.target.value })}>
        <option value="">Anyone</option>
        <option value="me">Me</option>
        <option value="none">Unassigned</option>
        {members.data?.map((m) => (
          <option key={m.user.id} value={m.user.id}>
            {m.user.name}
          </option>
        ))}
      </select>
      {!!teams.data?.length && (
        <select aria-label="Team filter" value={filters.team_id} onChange={(e) => set({ team_id: e.target.value })}>
          <option value="">Any team</option>
          {teams.data.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      )}
      <select aria-label="Label filter" value={filters.tag} onChange={(e) => set({ tag: e.target.value })}>
        <option value="">Any label</option>
        {tags.data
          ?.filter((t) => t.applies_to.includes("tickets"))
          .map((t) => (
            <option key={t.id} value={t.name}>
              {t.name}
            </option>
          ))}
      </select>
      <select
        aria-label="Channel filter"
        value={filters.channel}
        onChange={(e) => set({ channel: e.target.value as Channel | "" })}
      >
        <option value="">Any channel</option>
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
            aria-label={`Remove filter ${c.key} ${c.op}`}
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
          title={`Clear ${active} filter values`}
        >
          Clear filters
        </button>
      )}
      {onSaveView && (active > 0 || filters.q.trim() !== "") && (
        <button type="button" className="btn btn-small" onClick={onSaveView}>
          Save as view
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
      aria-label="Sort"
      value={`${filters.sort}:${filters.order}`}
      onChange={(e) => {
        const [sort, order] = e.target.value.split(":");
        set({ sort, order: order as "asc" | "desc" });
      }}
    >
      <option value="last_message_at:desc">Newest activity</option>
      <option value="last_message_at:asc">Oldest activity</option>
      <option value="created_at:desc">Newest created</option>
      <option value="created_at:asc">Oldest created</option>
      <option value="priority:desc">Priority</option>
      <option value="severity:asc">Severity</option>
      <option value="due:asc">Due soonest</option>
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
