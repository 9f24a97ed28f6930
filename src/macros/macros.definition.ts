import type { AutomationAction } from "../automations/automations.public";
import { createdAt, flag, id, index, integer, json, table, text, updatedAt, workspaceId } from "../db/schema-kit";

/** The macros table, declared once with the schema kit (src/db/schema-kit.ts): macros.table.ts builds it for SQLite, macros.table.pg.ts for PostgreSQL. */
export const macrosTable = table(
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
