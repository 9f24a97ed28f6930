import { createdAt, flag, id, index, integer, json, table, text, updatedAt, workspaceId } from "../db/schema-kit";
import type { ViewFilters } from "./views.schemas";

export const viewsTable = table(
  "views",
  {
    id: id(),
    workspaceId: workspaceId(),
    /** The person a personal view belongs to; shared views keep their creator here too. */
    userId: text("user_id"),
    name: text("name").notNull(),
    shared: flag("shared"),
    position: integer("position").notNull().default(0),
    filters: json<ViewFilters>("filters").notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("views_workspace_idx").on(t.workspaceId, t.position)],
);
