import type { Team } from "../api/types";
import { listQuery } from "../api/queries";
import { defineResource } from "../realtime/invalidation";

export const teamsKeys = { list: ["teams"] as const };

export const teamsResource = defineResource({
  name: "teams",
  keys: teamsKeys,
  events: [{ on: ["team.*"], invalidate: () => [teamsKeys.list] }],
});

export const useTeams = listQuery<Team>(teamsKeys.list, "/teams");
