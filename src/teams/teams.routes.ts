import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { IdParams } from "../http/schemas";
import { CreateTeamBody, TeamListQuery, TeamPage, TeamSchema, UpdateTeamBody } from "./teams.schemas";
import { createTeam, deleteTeam, getTeam, listTeams, updateTeam } from "./teams.service";

const read = { role: "viewer", scopes: ["settings:read"] } as const;
const write = { role: "admin", scopes: ["settings:read", "settings:write"] } as const;

const PRIVATE_GRANT =
  "A private team's members read its tickets, so an API key without tickets:read cannot set a private team's members or make it public (403).";

export function teamsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/teams", tags: ["teams"] })
    .use(deps.guard)
    .get("/", async ({ ctx, query }) => await listTeams(ctx, query, deps), {
      access: read,
      query: TeamListQuery,
      response: { 200: TeamPage },
      detail: { summary: "List teams" },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return await createTeam(ctx, body, deps);
      },
      {
        access: write,
        body: CreateTeamBody,
        response: { 201: TeamSchema },
        detail: { summary: "Create a team; member_ids must be workspace members", description: PRIVATE_GRANT },
      },
    )
    .get("/:id", async ({ ctx, params }) => await getTeam(ctx, params.id, deps), {
      access: read,
      params: IdParams,
      response: { 200: TeamSchema },
      detail: { summary: "One team" },
    })
    .patch("/:id", async ({ ctx, params, body }) => await updateTeam(ctx, params.id, body, deps), {
      access: write,
      params: IdParams,
      body: UpdateTeamBody,
      response: { 200: TeamSchema },
      detail: { summary: "Rename a team, replace its members or change privacy", description: PRIVATE_GRANT },
    })
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteTeam(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      { access: write, params: IdParams, detail: { summary: "Delete a team" } },
    );
}
