import type { LabelColor } from "./labels.rules";
import type { tagGroups, tags } from "./labels.table";

export type TagRow = typeof tags.$inferSelect;
export type TagGroupRow = typeof tagGroups.$inferSelect;
export type LabelUsage = { tickets: number; contacts: number; companies: number };
export type TagRef = { id: string; name: string; color: LabelColor; group_id: string | null };

export const NO_USAGE: LabelUsage = { tickets: 0, contacts: 0, companies: 0 };

export const presentTagRef = (row: Pick<TagRow, "id" | "name" | "color" | "groupId">): TagRef => ({
  id: row.id,
  name: row.name,
  color: row.color as LabelColor,
  group_id: row.groupId ?? null,
});

export const presentTag = (row: TagRow, usage: LabelUsage) => ({
  id: row.id,
  name: row.name,
  color: row.color as LabelColor,
  description: row.description,
  group_id: row.groupId ?? null,
  position: row.position,
  archived: row.archived,
  applies_to: row.appliesTo,
  usage,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export const presentTagGroup = (row: TagGroupRow, tagCount: number) => ({
  id: row.id,
  name: row.name,
  color: (row.color ?? null) as LabelColor | null,
  exclusive: row.exclusive,
  position: row.position,
  tag_count: tagCount,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});
