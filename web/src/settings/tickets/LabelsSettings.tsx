import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../../lib/api/client";
import { LABEL_COLORS, type Tag, type TagGroup } from "../../lib/api/types";
import { type MessageKey, t } from "../../lib/i18n/i18n";
import { TagChip } from "../../lib/ui/bits";
import { Field, FormError, formValues } from "../../lib/ui/form";
import { Empty, ErrorBox, Loading } from "../../lib/ui/states";
import { useCrud } from "../kit/crud";
import { ChangeError, DeleteButton } from "../kit/CrudScreen";
import { labelsKeys } from "../../lib/resources/labels";

const COLORS: Record<(typeof LABEL_COLORS)[number], MessageKey> = {
  gray: "workflow.colorGray",
  red: "workflow.colorRed",
  orange: "workflow.colorOrange",
  amber: "workflow.colorAmber",
  yellow: "workflow.colorYellow",
  lime: "workflow.colorLime",
  green: "workflow.colorGreen",
  teal: "workflow.colorTeal",
  cyan: "workflow.colorCyan",
  blue: "workflow.colorBlue",
  indigo: "workflow.colorIndigo",
  violet: "workflow.colorViolet",
  purple: "workflow.colorPurple",
  pink: "workflow.colorPink",
  rose: "workflow.colorRose",
};

/** Moves `dragged` to where `target` is, answering the new id order. */
const moved = (ids: string[], dragged: string, target: string) => {
  const rest = ids.filter((i) => i !== dragged);
  rest.splice(rest.indexOf(target), 0, dragged);
  return rest;
};

export default function LabelsSettings() {
  const tags = useCrud<Tag>(labelsKeys.tags, "/tags");
  const groups = useCrud<TagGroup>(labelsKeys.tagGroups, "/tag-groups");
  const client = useQueryClient();
  const [dragging, setDragging] = useState<string | null>(null);
  const reorder = useMutation({
    mutationFn: ({ path, ids }: { path: string; ids: string[] }) => api(`${path}/reorder`, { body: { ids } }),
    onSettled: () => {
      client.invalidateQueries({ queryKey: labelsKeys.tags });
      client.invalidateQueries({ queryKey: labelsKeys.tagGroups });
    },
  });

  const addTag = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    tags.create.mutate(
      {
        name: v.name,
        color: v.color || undefined,
        group_id: v.group_id || null,
        description: v.description || undefined,
      },
      { onSuccess: () => form.reset() },
    );
  };
  const addGroup = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    groups.create.mutate({ name: v.name, exclusive: v.exclusive === "on" }, { onSuccess: () => form.reset() });
  };

  if (tags.list.isPending || groups.list.isPending) return <Loading />;
  if (tags.list.isError) return <ErrorBox error={tags.list.error} retry={() => tags.list.refetch()} />;
  const all = tags.list.data;
  const sections = [...(groups.list.data ?? []), null];

  const dropOn = (tag: Tag) => {
    if (!dragging || dragging === tag.id) return;
    const dragged = all.find((t) => t.id === dragging);
    if (!dragged) return;
    // Dropping on a label of another group moves the label into that group first.
    if (dragged.group_id !== tag.group_id) tags.update.mutate({ id: dragged.id, group_id: tag.group_id });
    const ids = all.filter((t) => t.group_id === tag.group_id).map((t) => t.id);
    const order = moved(ids.includes(dragging) ? ids : [...ids, dragging], dragging, tag.id);
    client.setQueryData<Tag[]>(
      labelsKeys.tags,
      (list) => list && [...list].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id)),
    );
    reorder.mutate({ path: "/tags", ids: order });
  };

  return (
    <div className="settings-page">
      <h1>{t("workflow.labelsTitle")}</h1>
      <form className="inline-form" onSubmit={addTag} noValidate>
        <Field label={t("workflow.newLabel")} name="name" error={tags.create.error}>
          <input name="name" placeholder={t("workflow.labelNamePlaceholder")} />
        </Field>
        <Field label={t("workflow.labelColor")} name="color" error={tags.create.error}>
          <select name="color" defaultValue="">
            <option value="">{t("workflow.colorAuto")}</option>
            {LABEL_COLORS.map((c) => (
              <option key={c} value={c}>
                {t(COLORS[c])}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t("workflow.labelGroup")} name="group_id" error={tags.create.error}>
          <select name="group_id" defaultValue="">
            <option value="">{t("workflow.noGroup")}</option>
            {groups.list.data?.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" className="btn btn-primary" disabled={tags.create.isPending}>
          {t("workflow.addLabel")}
        </button>
      </form>
      <FormError error={tags.create.error} fields={["name", "color", "group_id"]} />
      <p className="muted small">{t("workflow.labelsHint")}</p>
      {sections.map((group) => {
        const list = all.filter((t) => t.group_id === (group?.id ?? null));
        return (
          <div className="card" key={group?.id ?? "none"}>
            <div className="card-head">
              <strong>{group ? group.name : t("workflow.ungrouped")}</strong>
              {group && (
                <>
                  <label className="check small">
                    <input
                      type="checkbox"
                      checked={group.exclusive}
                      onChange={(e) => groups.update.mutate({ id: group.id, exclusive: e.target.checked })}
                    />{" "}
                    {t("workflow.exclusive")}
                  </label>
                  <div className="grow" />
                  <DeleteButton
                    question={t("workflow.deleteGroupQuestion", { name: group.name })}
                    onDelete={() => groups.remove.mutate(group.id)}
                    className="btn btn-small btn-ghost"
                  >
                    {t("workflow.deleteGroup")}
                  </DeleteButton>
                </>
              )}
            </div>
            {list.length === 0 ? (
              <div className="muted small">{t("workflow.noLabels")}</div>
            ) : (
              <ul className="sortable">
                {list.map((tag) => (
                  <li
                    key={tag.id}
                    draggable
                    onDragStart={() => setDragging(tag.id)}
                    onDragEnd={() => setDragging(null)}
                    onDragOver={(e) => e.preventDefault()}
                    onDrop={() => dropOn(tag)}
                    className={dragging === tag.id ? "dragging" : ""}
                  >
                    <span className="grip" aria-hidden>
                      ⋮⋮
                    </span>
                    <TagChip tag={tag} />
                    {tag.archived && <span className="pill">{t("workflow.archived")}</span>}
                    <span className="muted small">
                      {t("workflow.labelUsage", {
                        tickets: tag.usage?.tickets ?? 0,
                        contacts: tag.usage?.contacts ?? 0,
                      })}
                    </span>
                    <div className="grow" />
                    <select
                      aria-label={t("workflow.colorOf", { name: tag.name })}
                      value={tag.color}
                      onChange={(e) => tags.update.mutate({ id: tag.id, color: e.target.value })}
                    >
                      {LABEL_COLORS.map((c) => (
                        <option key={c} value={c}>
                          {t(COLORS[c])}
                        </option>
                      ))}
                    </select>
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      onClick={() => tags.update.mutate({ id: tag.id, archived: !tag.archived })}
                    >
                      {tag.archived ? t("workflow.restore") : t("workflow.archive")}
                    </button>
                    <DeleteButton
                      question={t("workflow.deleteLabelQuestion", { name: tag.name })}
                      onDelete={() => tags.remove.mutate(tag.id)}
                      className="btn btn-small btn-ghost"
                    />
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
      <ChangeError mutations={[tags.update, tags.remove, reorder]} />
      <h2>{t("workflow.labelGroupsHeading")}</h2>
      <form className="inline-form" onSubmit={addGroup} noValidate>
        <Field label={t("workflow.newGroup")} name="name" error={groups.create.error}>
          <input name="name" placeholder={t("workflow.groupNamePlaceholder")} />
        </Field>
        <label className="check">
          <input type="checkbox" name="exclusive" /> {t("workflow.exclusive")}
        </label>
        <button type="submit" className="btn" disabled={groups.create.isPending}>
          {t("workflow.addGroup")}
        </button>
      </form>
      <FormError error={groups.create.error} fields={["name"]} />
      {!all.length && <Empty title={t("workflow.labelsEmpty")}>{t("workflow.labelsEmptyBody")}</Empty>}
    </div>
  );
}
