import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { notFound } from "../http/errors";
import { presentWorkspace } from "./workspaces.present";
import { CreateWorkspaceBody, WorkspaceSchema } from "./workspaces.schemas";
import { createWorkspace, findWorkspace } from "./workspaces.service";

export function workspacesRoutes(deps: Deps) {
  return new Elysia({ tags: ["workspaces"] })
    .use(deps.guard)
    .post(
      "/workspaces",
      ({ user, body, set }) => {
        set.status = 201;
        return presentWorkspace(createWorkspace(user, body, deps));
      },
      { signedIn: true, body: CreateWorkspaceBody, response: { 201: WorkspaceSchema }, detail: { summary: "Create a workspace; the caller becomes its owner" } },
    )
    .get(
      "/workspace",
      ({ ctx }) => {
        const row = findWorkspace(deps.db, ctx.workspaceId);
        if (!row) throw notFound("Workspace");
        return presentWorkspace(row);
      },
      { access: { role: "viewer", scopes: ["settings:read"] }, response: { 200: WorkspaceSchema }, detail: { summary: "The current workspace" } },
    );
}
