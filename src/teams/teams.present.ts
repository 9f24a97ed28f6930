import type { teams } from "./teams.table";

export type TeamRow = typeof teams.$inferSelect;

export const presentTeam = (row: TeamRow, memberIds: string[]) => ({
  id: row.id,
  name: row.name,
  member_ids: memberIds,
  private: row.private,
  created_at: row.createdAt,
});

export type TeamJson = ReturnType<typeof presentTeam>;
