import { useMembers } from "../lib/resources/members";
import { useTags } from "../lib/resources/labels";
import { PRIORITIES, STATUSES } from "../lib/api/types";
import { statusLabel } from "../lib/ui/bits";
import { errorText } from "../lib/ui/states";
import { MacroMenu } from "../tickets/MacroMenu";
import { useBulk } from "./Inbox";

/** Actions on the selected tickets. */
export function BulkBar({ ids, onDone, onSelectAll }: { ids: string[]; onDone: () => void; onSelectAll: () => void }) {
  const bulk = useBulk(onDone);
  const members = useMembers();
  const tags = useTags();
  const patch = (p: Record<string, unknown>) => bulk.mutate({ ids, patch: p });
  const pick = (fn: (value: string) => void) => (e: React.ChangeEvent<HTMLSelectElement>) => {
    if (e.target.value) fn(e.target.value);
    e.target.value = "";
  };
  return (
    <div className="bulk-bar" role="toolbar" aria-label="Bulk actions">
      <strong>{ids.length} selected</strong>
      <button type="button" className="btn btn-small btn-ghost" onClick={onSelectAll}>
        Select all loaded
      </button>
      <select aria-label="Set status" onChange={pick((v) => patch({ status: v }))} defaultValue="">
        <option value="">Status…</option>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {statusLabel(s)}
          </option>
        ))}
      </select>
      <select aria-label="Set priority" onChange={pick((v) => patch({ priority: v }))} defaultValue="">
        <option value="">Priority…</option>
        {PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {statusLabel(p)}
          </option>
        ))}
      </select>
      <select
        aria-label="Assign"
        onChange={pick((v) => patch({ assignee_id: v === "none" ? null : v }))}
        defaultValue=""
      >
        <option value="">Assign…</option>
        <option value="none">Unassigned</option>
        {members.data
          ?.filter((m) => m.role !== "viewer")
          .map((m) => (
            <option key={m.user.id} value={m.user.id}>
              {m.user.name}
            </option>
          ))}
      </select>
      <select aria-label="Add label" onChange={pick((v) => patch({ add_tags: [v] }))} defaultValue="">
        <option value="">Add label…</option>
        {tags.data
          ?.filter((t) => !t.archived && t.applies_to.includes("tickets"))
          .map((t) => (
            <option key={t.id} value={t.name}>
              {t.name}
            </option>
          ))}
      </select>
      <MacroMenu ticketIds={ids} onDone={onDone} />
      <button type="button" className="btn btn-small" onClick={() => patch({ spam: true })}>
        Spam
      </button>
      <button
        type="button"
        className="btn btn-small btn-danger"
        onClick={() => confirm(`Delete ${ids.length} tickets?`) && bulk.mutate({ ids, delete: true })}
      >
        Delete
      </button>
      <button type="button" className="btn btn-small btn-ghost" onClick={onDone}>
        Clear
      </button>
      {bulk.isError && <span className="field-error">{errorText(bulk.error)}</span>}
    </div>
  );
}
