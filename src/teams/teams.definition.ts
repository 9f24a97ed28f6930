import { createdAt, flag, id, index, primaryKey, table, text, updatedAt, workspaceId } from "../db/schema-kit";

export const teamsTable = table(
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

export const teamMembersTable = table(
  "team_members",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => [teamsTable, "id"], { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
  },
  (t) => [primaryKey(t.teamId, t.userId), index("team_members_user_idx").on(t.userId)],
);
