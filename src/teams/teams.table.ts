import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, updatedAt, workspaceId } from "../db/columns";

export const teams = sqliteTable(
  "teams",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    private: flag("private"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("teams_workspace_idx").on(t.workspaceId)],
);

export const teamMembers = sqliteTable(
  "team_members",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("team_members_user_idx").on(t.userId)],
);
