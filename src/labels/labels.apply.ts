import { first, one } from "../db/store";
import { and, type Column, eq, sql, type SQL } from "drizzle-orm";
import { hasScope, roleAtLeast, type RequestContext } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { tagCreated } from "./labels.events";
import { appendEvent } from "../events/append";
import { DeskError, validationFailed, type FieldError } from "../lib/errors";
import { newId } from "../lib/ids";
import type { Ports } from "../lib/ports";
import { labelCreationSetting } from "./labels.ports";
import { NO_USAGE, presentTag, presentTagRef, type TagRef } from "./labels.present";
import {
  colorForName,
  labelNameKey,
  labelNameProblem,
  MAX_LABELS_PER_RECORD,
  MAX_LABELS_PER_WORKSPACE,
  normalizeLabelName,
} from "./labels.rules";
import {
  currentLabelFacts,
  inListOrder,
  labelFactsByKeys,
  labelStatements,
  type LabelFacts,
} from "./labels.statements";
import { recordTags, tagGroups, tags } from "./labels.table";
import { deskClock } from "../db/desk-clock";
import { dbOf } from "../db/tx";

export type { TagRef } from "./labels.present";
export type LabelKind = "tickets" | "contacts" | "companies";
export type LabelWrite = { tags?: string[]; add_tags?: string[]; remove_tags?: string[] };

type NamedLabel = { name: string; key: string; location: string };

/** May this caller create labels by naming them on a record? */
export async function mayCreateLabels(tx: Queryable, ctx: RequestContext, ports: Ports): Promise<boolean> {
  if ((await ports.get(labelCreationSetting)(tx, ctx.workspaceId)) !== "admins") return true;
  if (ctx.scopes !== null) return hasScope(ctx, "settings:write");
  return roleAtLeast(ctx.role, "admin");
}

/** Creates a label with defaults (palette colour, end of the ungrouped list) and emits tag.created. */
export async function insertLabel(
  tx: Tx,
  workspaceId: string,
  input: {
    name: string;
    color?: string;
    description?: string;
    groupId?: string | null;
    appliesTo?: LabelKind[];
    position?: number;
  },
) {
  const now = deskClock(dbOf(tx)).now().toISOString();
  const groupId = input.groupId ?? null;
  const position =
    input.position ??
    first(
      await tx
        .select({ next: sql<number>`coalesce(max(${tags.position}) + 1, 0)` })
        .from(tags)
        .where(
          and(
            eq(tags.workspaceId, workspaceId),
            groupId === null ? sql`${tags.groupId} IS NULL` : eq(tags.groupId, groupId),
          ),
        )
        .limit(1),
    )?.next ??
    0;
  const row = one(
    await tx
      .insert(tags)
      .values({
        id: newId(),
        workspaceId,
        name: input.name,
        nameKey: labelNameKey(input.name),
        color: input.color ?? colorForName(input.name),
        description: input.description ?? "",
        groupId,
        position,
        archived: false,
        appliesTo: input.appliesTo ?? ["tickets", "contacts", "companies"],
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  await appendEvent(tx, tagCreated, { workspaceId, data: { tag: presentTag(row, NO_USAGE) } });
  return row;
}

export const labelCount = (db: Queryable, workspaceId: string): Promise<number> =>
  labelStatements(db).count(workspaceId);

function namesOf(list: unknown, member: string, errors: FieldError[]): NamedLabel[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    errors.push({ location: `body.${member}`, message: "a list of label names" });
    return [];
  }
  return list.flatMap((raw, index) => {
    const location = `body.${member}.${index}`;
    if (typeof raw !== "string") {
      errors.push({ location, message: "a label name is a string" });
      return [];
    }
    const name = normalizeLabelName(raw);
    const problem = labelNameProblem(name);
    if (problem) {
      errors.push({ location, message: problem });
      return [];
    }
    return [{ name, key: labelNameKey(name), location }];
  });
}

/** What a label write did; `tags` is the record's whole label list after it (labelsOf order), null when the write named no labels. */
export type LabelWriteResult = { added: TagRef[]; removed: TagRef[]; tags: TagRef[] | null };

/**
 * Applies a record write's `tags` (replaces the set), `add_tags` and `remove_tags`, in that order.
 * Unknown names create labels (unless restricted to admins); in an exclusive group the label named
 * last wins and an added label pushes the group's others off the record. The caller emits the
 * record's own event.
 */
export async function applyLabelWrite(
  tx: Tx,
  ctx: RequestContext,
  kind: LabelKind,
  recordId: string,
  write: LabelWrite,
  ports: Ports,
): Promise<LabelWriteResult> {
  if (write.tags === undefined && write.add_tags === undefined && write.remove_tags === undefined)
    return { added: [], removed: [], tags: null };
  const errors: FieldError[] = [];
  const named = [...namesOf(write.tags, "tags", errors), ...namesOf(write.add_tags, "add_tags", errors)];
  const removing = namesOf(write.remove_tags, "remove_tags", errors);
  if (errors.length) throw validationFailed(errors);

  const wantedKeys = [...new Set(named.map((n) => n.key))];
  const known = new Map<string, LabelFacts>();
  if (wantedKeys.length)
    for (const row of await labelFactsByKeys(tx, ctx.workspaceId, wantedKeys)) known.set(row.nameKey, row);
  const missing = named.filter((n, i) => !known.has(n.key) && named.findIndex((m) => m.key === n.key) === i);
  for (const n of named) {
    const label = known.get(n.key);
    if (label && !label.appliesTo.includes(kind))
      errors.push({ location: n.location, message: `the label "${label.name}" does not apply to ${kind}` });
  }
  if (errors.length) throw validationFailed(errors);
  if (missing.length) {
    if (!(await mayCreateLabels(tx, ctx, ports))) {
      const first = missing[0]!;
      throw new DeskError(
        422,
        "unknown_label",
        `No label is named "${first.name}", and only admins create labels in this workspace.`,
        missing.map((n) => ({ location: n.location, message: `no label is named "${n.name}"` })),
      );
    }
    if ((await labelCount(tx, ctx.workspaceId)) + missing.length > MAX_LABELS_PER_WORKSPACE) {
      throw validationFailed([
        { location: missing[0]!.location, message: `a workspace has at most ${MAX_LABELS_PER_WORKSPACE} labels` },
      ]);
    }
    for (const n of missing) {
      const row = await insertLabel(tx, ctx.workspaceId, { name: n.name });
      known.set(n.key, {
        id: row.id,
        name: row.name,
        nameKey: row.nameKey,
        color: row.color,
        groupId: null,
        appliesTo: row.appliesTo,
        exclusive: false,
        groupPosition: null,
        joinedGroupId: null,
        position: row.position,
      });
    }
  }

  const before = await currentLabelFacts(tx, kind, recordId);
  let next: LabelFacts[] = write.tags !== undefined ? [] : [...before];
  for (const n of named) {
    const label = known.get(n.key)!;
    if (label.exclusive) next = next.filter((l) => l.groupId !== label.groupId);
    else next = next.filter((l) => l.id !== label.id);
    next.push(label);
  }
  const removeKeys = new Set(removing.map((n) => n.key));
  next = next.filter((l) => !removeKeys.has(l.nameKey));
  if (next.length > MAX_LABELS_PER_RECORD) {
    const member = write.add_tags !== undefined ? "add_tags" : "tags";
    throw validationFailed([
      { location: `body.${member}`, message: `a record carries at most ${MAX_LABELS_PER_RECORD} labels` },
    ]);
  }

  const beforeIds = new Set(before.map((l) => l.id));
  const nextIds = new Set(next.map((l) => l.id));
  const added = next.filter((l) => !beforeIds.has(l.id));
  const removed = before.filter((l) => !nextIds.has(l.id));
  const statements = labelStatements(tx);
  for (const label of removed) await statements.detach(kind, recordId, label.id);
  if (added.length) {
    const now = deskClock(dbOf(tx)).now().toISOString();
    for (const label of added) await statements.attach(ctx.workspaceId, kind, recordId, label.id, now);
  }
  return {
    added: added.map(presentTagRef),
    removed: removed.map(presentTagRef),
    tags: inListOrder(next).map(presentTagRef),
  };
}

/** The labels of each record, ordered like the label list (group position, position, name). */
export async function labelsOf(db: Queryable, kind: LabelKind, recordIds: string[]): Promise<Map<string, TagRef[]>> {
  const out = new Map<string, TagRef[]>();
  if (recordIds.length === 0) return out;
  for (const recordId of recordIds) out.set(recordId, []);
  const statements = labelStatements(db);
  const rows =
    out.size === 1
      ? await statements.refsOfOne(kind, recordIds[0]!)
      : await statements.refsOfMany(kind, [...out.keys()]);
  for (const row of rows) out.get(row.recordId)!.push(presentTagRef(row));
  return out;
}

/** The workspace's label of this name (any case): automations keep the id of a label a rule names. */
export const labelNamed = async (
  db: Queryable,
  workspaceId: string,
  name: string,
): Promise<{ id: string; name: string } | undefined> =>
  first(
    await db
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(and(eq(tags.workspaceId, workspaceId), eq(tags.nameKey, labelNameKey(name))))
      .limit(1),
  );

/** `EXISTS (…)`: the record in `recordIdColumn` carries the label named `labelName` (any case). */
export function labelFilterSql(kind: LabelKind, workspaceId: string, labelName: string, recordIdColumn: Column): SQL {
  const key = labelNameKey(labelName);
  return sql`EXISTS (SELECT 1 FROM ${recordTags} WHERE ${recordTags.kind} = ${kind} AND ${recordTags.recordId} = ${recordIdColumn} AND ${recordTags.tagId} = (SELECT ${tags.id} FROM ${tags} WHERE ${tags.workspaceId} = ${workspaceId} AND ${tags.nameKey} = ${key}))`;
}

/** Removes every label from a record (the record is being deleted). */
export async function clearLabels(tx: Tx, kind: LabelKind, recordId: string): Promise<void> {
  await tx.delete(recordTags).where(and(eq(recordTags.kind, kind), eq(recordTags.recordId, recordId)));
}

/**
 * The ticket labels triage may choose from: those of the exclusive group named "Type" (ignoring
 * case) and all others, live ones only, by name.
 */
export async function ticketLabelChoices(
  db: Queryable,
  workspaceId: string,
): Promise<{ type: string[]; other: string[] }> {
  const rows = (
    await db
      .select({ name: tags.name, appliesTo: tags.appliesTo, groupName: tagGroups.name, exclusive: tagGroups.exclusive })
      .from(tags)
      .leftJoin(tagGroups, eq(tagGroups.id, tags.groupId))
      .where(and(eq(tags.workspaceId, workspaceId), eq(tags.archived, false)))
      .orderBy(tags.position, tags.name)
  ).filter((r) => r.appliesTo.includes("tickets"));
  const isType = (r: (typeof rows)[number]) => r.exclusive === true && r.groupName?.trim().toLowerCase() === "type";
  return { type: rows.filter(isType).map((r) => r.name), other: rows.filter((r) => !isType(r)).map((r) => r.name) };
}
