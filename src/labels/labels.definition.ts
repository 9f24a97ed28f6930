import {
  createdAt,
  flag,
  id,
  index,
  integer,
  json,
  primaryKey,
  table,
  text,
  uniqueIndex,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

export const LABEL_KINDS = ["tickets", "contacts", "companies"] as const;

export const tagGroupsTable = table(
  "tag_groups",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    color: text("color"),
    exclusive: flag("exclusive"),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("tag_groups_workspace_idx").on(t.workspaceId, t.position)],
);

export const tagsTable = table(
  "tags",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    /** The name lowercased (Unicode-aware, in JS): uniqueness and lookups ignore case. */
    nameKey: text("name_key").notNull(),
    color: text("color").notNull(),
    description: text("description").notNull().default(""),
    groupId: text("group_id"),
    position: integer("position").notNull().default(0),
    archived: flag("archived"),
    appliesTo: json<Array<(typeof LABEL_KINDS)[number]>>("applies_to").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("tags_workspace_name_unique").on(t.workspaceId, t.nameKey),
    index("tags_group_idx").on(t.groupId),
  ],
);

/** Which label is on which record; `kind` says which table `record_id` points into. */
export const recordTagsTable = table(
  "record_tags",
  {
    workspaceId: workspaceId(),
    kind: text("kind", { enum: LABEL_KINDS }).notNull(),
    recordId: text("record_id").notNull(),
    tagId: text("tag_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey(t.kind, t.recordId, t.tagId), index("record_tags_tag_idx").on(t.tagId, t.kind)],
);
