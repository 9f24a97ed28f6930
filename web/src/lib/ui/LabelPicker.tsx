import { useState } from "react";
import { useTagGroups, useTags } from "../resources/labels";
import type { TagRef } from "../api/types";
import { TagChip } from "./bits";
import { useDismiss } from "./layers";
import { t } from "../i18n/i18n";

/**
 * The record's labels plus a picker grouped by label group. Typing a new name creates the label
 * (the API decides whether the caller may). Exclusive groups are enforced by the API; the picker
 * marks them so the swap is expected.
 */
export function LabelPicker({
  tags,
  kind,
  onAdd,
  onRemove,
  disabled,
}: {
  tags: TagRef[];
  kind: "tickets" | "contacts" | "companies";
  onAdd: (name: string) => void;
  onRemove: (name: string) => void;
  disabled?: boolean;
}) {
  const all = useTags();
  const groups = useTagGroups();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState("");
  useDismiss(() => setOpen(false), open);
  const have = new Set(tags.map((t) => t.id));
  const choices = (all.data ?? []).filter(
    (t) =>
      !t.archived && t.applies_to.includes(kind) && !have.has(t.id) && t.name.toLowerCase().includes(q.toLowerCase()),
  );
  const grouped = [null, ...(groups.data ?? [])]
    .map((g) => ({ group: g, tags: choices.filter((t) => t.group_id === (g?.id ?? null)) }))
    .filter((x) => x.tags.length);
  const exact = (all.data ?? []).some((t) => t.name.toLowerCase() === q.trim().toLowerCase());
  const add = (name: string) => {
    onAdd(name);
    setQ("");
    setOpen(false);
  };
  return (
    <div className="labels">
      <div className="chips">
        {tags.map((t) => (
          <TagChip key={t.id} tag={t} onRemove={disabled ? undefined : () => onRemove(t.name)} />
        ))}
        {!disabled && (
          <button
            type="button"
            className="btn btn-small btn-ghost"
            onClick={() => setOpen((v) => !v)}
            aria-expanded={open}
          >
            {t("common.addLabelButton")}
          </button>
        )}
      </div>
      {open && (
        <div className="picker">
          <input
            autoFocus
            placeholder={t("common.labelSearchPlaceholder")}
            aria-label={t("common.labelName")}
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && q.trim())
                add(
                  choices[0]?.name.toLowerCase() === q.trim().toLowerCase() || !choices.length
                    ? q.trim()
                    : choices[0].name,
                );
            }}
          />
          <div className="picker-list">
            {grouped.map(({ group, tags: list }) => (
              <div key={group?.id ?? "none"}>
                {group && (
                  <div className="picker-group">
                    {group.exclusive ? t("common.labelGroupPickOne", { name: group.name }) : group.name}
                  </div>
                )}
                {list.map((t) => (
                  <button type="button" key={t.id} className="picker-item" onClick={() => add(t.name)}>
                    <TagChip tag={t} />
                  </button>
                ))}
              </div>
            ))}
            {q.trim() && !exact && (
              <button type="button" className="picker-item" onClick={() => add(q.trim())}>
                {t("common.createLabel", { name: q.trim() })}
              </button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
