import { z } from "zod";
import { defineEvent } from "../events/define";
import { WorkspaceSchema } from "./workspaces.schemas";

export const workspaceUpdated = defineEvent("workspace.updated", z.object({ workspace: WorkspaceSchema }), {
  readScope: "settings:read",
  description: "The workspace's name, settings, logo or a brand image changed.",
});
export const workspaceEvents = [workspaceUpdated] as const;
