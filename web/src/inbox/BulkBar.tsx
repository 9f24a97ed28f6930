import { useMembers } from "../lib/resources/members";
import { useTags } from "../lib/resources/labels";
import { PRIORITIES, STATUSES } from "../lib/api/types";
import { statusLabel } from "../lib/ui/bits";
import { errorText } from "../lib/ui/states";
import { t } from "../lib/i18n/i18n";
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
    <div className="bulk-bar" role="toolbar" aria-label={t("inbox.bulkActions")}>
      <strong>{t("inbox.selectedCount", { count: ids.length })}</strong>
      <button type="button" className="btn btn-small btn-ghost" onClick={onSelectAll}>
        {t("inbox.selectAllLoaded")}
      </button>
      <select aria-label={t("inbox.setStatus")} onChange={pick((v) => patch({ status: v }))} defaultValue="">
        <option value="">{t("inbox.statusPlaceholder")}</option>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {statusLabel(s)}
          </option>
        ))}
      </select>
      <select aria-label={t("inbox.setPriority")} onChange={pick((v) => patch({ priority: v }))} defaultValue="">
        <option value="">{t("inbox.priorityPlaceholder")}</option>
        {PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {statusLabel(p)}
          </option>
        ))}
      </select>
      <select
        aria-label={t("inbox.assign")}
        onChange={pick((v) => patch({ assignee_id: v === "none" ? null : v }))}
        defaultValue=""
      >
        <option value="">{t("inbox.assignPlaceholder")}</option>
        <option value="none">{t("inbox.unassigned")}</option>
        {members.data
          ?.filter((m) => m.role !== "viewer")
          .map((m) => (
            <option key={m.user.id} value={m.user.id}>
              {m.user.name}
            </option>
          ))}
      </select>
      <select aria-label={t("inbox.addLabel")} onChange={pick((v) => patch({ add_tags: [v] }))} defaultValue="">
        <option value="">{t("inbox.addLabelPlaceholder")}</option>
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
        {t("inbox.markSpam")}
      </button>
      <button
        type="button"
        className="btn btn-small btn-danger"
        onClick={() => confirm(t("inbox.deleteConfirm", { count: ids.length })) && bulk.mutate({ ids, delete: true })}
      >
        {t("common.delete")}
      </button>
      <button type="button" className="btn btn-small btn-ghost" onClick={onDone}>
        {t("inbox.clearSelection")}
      </button>
      {bulk.isError && <span className="field-error">{errorText(bulk.error)}</span>}
    </div>
  );
}
