import { z } from "zod";
import { defineEvent } from "../events/define";
import { TeamSchema } from "./teams.schemas";

const options = { readScope: "settings:read" } as const;

export const teamCreated = defineEvent("team.created", z.object({ team: TeamSchema }), {
  ...options,
  description: "A team was created.",
});
export const teamUpdated = defineEvent("team.updated", z.object({ team: TeamSchema }), {
  ...options,
  description: "A team changed.",
});
export const teamDeleted = defineEvent("team.deleted", z.object({ team_id: z.string() }), {
  ...options,
  description: "A team was deleted.",
});
export const teamEvents = [teamCreated, teamUpdated, teamDeleted] as const;
