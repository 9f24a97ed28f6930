import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../../lib/api/client";
import { LABEL_COLORS, type Tag, type TagGroup } from "../../lib/api/types";
import { TagChip } from "../../lib/ui/bits";
import { Field, FormError, formValues } from "../../lib/ui/form";
import { Empty, ErrorBox, Loading } from "../../lib/ui/states";
import { useCrud } from "../kit/crud";
import { ChangeError, DeleteButton } from "../kit/CrudScreen";
import { labelsKeys } from "../../lib/resources/labels";

const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

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
      <h1>Labels</h1>
      <form className="inline-form" onSubmit={addTag} noValidate>
        <Field label="New label" name="name" error={tags.create.error}>
          <input name="name" placeholder="billing" />
        </Field>
        <Field label="Color" name="color" error={tags.create.error}>
          <select name="color" defaultValue="">
            <option value="">Auto</option>
            {LABEL_COLORS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Group" name="group_id" error={tags.create.error}>
          <select name="group_id" defaultValue="">
            <option value="">No group</option>
            {groups.list.data?.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" className="btn btn-primary" disabled={tags.create.isPending}>
          Add label
        </button>
      </form>
      <FormError error={tags.create.error} fields={["name", "color", "group_id"]} />
      <p className="muted small">
        Drag labels to reorder them or move them between groups. Exclusive groups allow one label per record.
      </p>
      {sections.map((group) => {
        const list = all.filter((t) => t.group_id === (group?.id ?? null));
        return (
          <div className="card" key={group?.id ?? "none"}>
            <div className="card-head">
              <strong>{group ? group.name : "Ungrouped"}</strong>
              {group && (
                <>
                  <label className="check small">
                    <input
                      type="checkbox"
                      checked={group.exclusive}
                      onChange={(e) => groups.update.mutate({ id: group.id, exclusive: e.target.checked })}
                    />{" "}
                    Exclusive
                  </label>
                  <div className="grow" />
                  <DeleteButton
                    question={`Delete group ${group.name}? Its labels stay, ungrouped.`}
                    onDelete={() => groups.remove.mutate(group.id)}
                    className="btn btn-small btn-ghost"
                  >
                    Delete group
                  </DeleteButton>
                </>
              )}
            </div>
            {list.length === 0 ? (
              <div className="muted small">No labels</div>
            ) : (
              <ul className="sortable">
                {list.map((t) => (
                  <li
                    key={t.id}
                    draggable
                    onDragStart={() => setDragging(t.id)}
                    onDragEnd={() => setDragging(null)}
                    onDragOver={(e) => e.preventDefault()}
                    onDrop={() => dropOn(t)}
                    className={dragging === t.id ? "dragging" : ""}
                  >
                    <span className="grip" aria-hidden>
                      ⋮⋮
                    </span>
                    <TagChip tag={t} />
                    {t.archived && <span className="pill">Archived</span>}
                    <span className="muted small">
                      {counted(t.usage?.tickets ?? 0, "ticket")} · {counted(t.usage?.contacts ?? 0, "contact")}
                    </span>
                    <div className="grow" />
                    <select
                      aria-label={`Color of ${t.name}`}
                      value={t.color}
                      onChange={(e) => tags.update.mutate({ id: t.id, color: e.target.value })}
                    >
                      {LABEL_COLORS.map((c) => (
                        <option key={c} value={c}>
                          {c}
                        </option>
                      ))}
                    </select>
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      onClick={() => tags.update.mutate({ id: t.id, archived: !t.archived })}
                    >
                      {t.archived ? "Restore" : "Archive"}
                    </button>
                    <DeleteButton
                      question={`Delete ${t.name}? It is removed from every record.`}
                      onDelete={() => tags.remove.mutate(t.id)}
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
      <h2>Label groups</h2>
      <form className="inline-form" onSubmit={addGroup} noValidate>
        <Field label="New group" name="name" error={groups.create.error}>
          <input name="name" placeholder="Type" />
        </Field>
        <label className="check">
          <input type="checkbox" name="exclusive" /> Exclusive
        </label>
        <button type="submit" className="btn" disabled={groups.create.isPending}>
          Add group
        </button>
      </form>
      <FormError error={groups.create.error} fields={["name"]} />
      {!all.length && <Empty title="No labels yet">Labels are created here or by typing a new name on a ticket.</Empty>}
    </div>
  );
}
