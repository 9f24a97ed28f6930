import type { workspaces } from "./workspaces.table";

type WorkspaceRow = typeof workspaces.$inferSelect;

export const IMAGE_SLOTS = ["help_center_logo", "help_center_favicon", "widget_avatar", "widget_launcher"] as const;

export function presentWorkspace(row: WorkspaceRow) {
  const images = row.images ?? {};
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    widget_key: row.widgetKey,
    settings: row.settings ?? {},
    avatar_url: row.avatarUrl ?? null,
    avatar_source: row.avatarUrl ? ("upload" as const) : null,
    images: Object.fromEntries(IMAGE_SLOTS.map((slot) => [slot, images[slot] ?? null])),
    created_at: row.createdAt,
  };
}
