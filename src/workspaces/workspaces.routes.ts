import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { notFound } from "../lib/errors";
import { MemberSchema } from "../members/members.public";
import { presentWorkspace } from "./workspaces.present";
import {
  CreateWorkspaceBody,
  DeleteWorkspaceBody,
  TransferWorkspaceBody,
  UpdateWorkspaceBody,
  WidgetSecretSchema,
  WorkspaceSchema,
} from "./workspaces.schemas";
import {
  createWorkspace,
  deleteWorkspace,
  findWorkspace,
  rotateWidgetSecret,
  transferOwnership,
  updateWorkspace,
} from "./workspaces.service";

const settingsWrite = { role: "admin", scopes: ["settings:write"] } as const;

export function workspacesRoutes(deps: Deps) {
  return new Elysia({ tags: ["workspaces"] })
    .use(deps.guard)
    .post(
      "/workspaces",
      async ({ user, body, set }) => {
        set.status = 201;
        return presentWorkspace(await createWorkspace(user, body, deps));
      },
      {
        signedIn: true,
        body: CreateWorkspaceBody,
        response: { 201: WorkspaceSchema },
        detail: { summary: "Create a workspace; the caller becomes its owner" },
      },
    )
    .get(
      "/workspace",
      async ({ ctx }) => {
        const row = await findWorkspace(deps.db, ctx.workspaceId);
        if (!row) throw notFound("Workspace");
        return presentWorkspace(row);
      },
      {
        access: { role: "viewer", scopes: ["settings:read"] },
        response: { 200: WorkspaceSchema },
        detail: { summary: "The current workspace" },
      },
    )
    .patch("/workspace", async ({ ctx, body }) => presentWorkspace(await updateWorkspace(ctx, body, deps)), {
      access: settingsWrite,
      body: UpdateWorkspaceBody,
      response: { 200: WorkspaceSchema },
      detail: {
        summary: "Rename the workspace or change settings (merged; null removes a setting)",
        description:
          "`settings.assign_on_reply` (default true): an agent's reply, not a note, on an unassigned ticket assigns the ticket to that agent (a member who is not a viewer); replies by API keys, automations and the system never do. " +
          "`settings.follow_on_mention` (default false): the members a note mentions (not its author) start following the ticket when they may see it, up to its 50 followers.",
      },
    })
    .delete(
      "/workspace",
      async ({ ctx, body, set }) => {
        await deleteWorkspace(ctx, body.confirm_name, deps);
        set.status = 204;
        return null;
      },
      {
        access: { role: "owner", keys: false },
        body: DeleteWorkspaceBody,
        detail: {
          summary: "Delete the workspace and all its data",
          description:
            "Owner only, from a session signed in with two-factor (403 `two_factor_required`) within the last 15 minutes (403 `recent_sign_in_required`).",
        },
      },
    )
    .post("/workspace/transfer", async ({ ctx, body }) => await transferOwnership(ctx, body.user_id, deps), {
      access: { role: "owner", keys: false },
      body: TransferWorkspaceBody,
      response: { 200: z.object({ owner: MemberSchema, previous_owner: MemberSchema }) },
      detail: { summary: "Make another member owner; the caller becomes admin (needs a two-factor session)" },
    })
    .post("/workspace/widget-secret/rotate", async ({ ctx }) => ({ secret: await rotateWidgetSecret(ctx, deps) }), {
      access: settingsWrite,
      response: { 200: WidgetSecretSchema },
      detail: { summary: "Generate a new widget secret (for user_hash); shown only in this response" },
    });
}
