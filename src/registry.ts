import type { Elysia } from "elysia";
import { apiKeysRoutes } from "./api-keys/api-keys.routes";
import type { Deps } from "./deps";
import type { JobDefinition } from "./jobs/define";
import { workspacesRoutes } from "./workspaces/workspaces.routes";

/**
 * Where features plug in: their route plugins (mounted under /v1), their job kinds and their
 * event hooks. Add one line per feature; nothing else needs to know about it.
 */
export function featureRoutes(deps: Deps): Elysia<any, any, any, any, any, any, any>[] {
  return [workspacesRoutes(deps), apiKeysRoutes(deps)];
}

export function featureJobs(_deps: Deps): JobDefinition<never>[] {
  return [];
}

/** Runs once at start: features subscribe to events (webhook deliveries, realtime, automations). */
export function registerFeatureHooks(_deps: Deps): void {}
