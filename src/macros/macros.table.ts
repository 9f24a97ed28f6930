import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { AutomationAction } from "../automations/automations.public";
import { createdAt, flag, id, json, updatedAt, workspaceId } from "../db/columns";

export const macros = sqliteTable(
  "macros",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    shared: flag("shared"),
    /** Who may see and use a personal macro (null once shared by a key without a creator). */
    ownerId: text("owner_id"),
    actions: json<AutomationAction[]>("actions").notNull().default([]),
    position: integer("position").notNull().default(0),
    usageCount: integer("usage_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("macros_workspace_idx").on(t.workspaceId, t.position)],
);
