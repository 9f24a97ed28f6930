import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { tryAssistantProbe } from "../onboarding/onboarding.public";
import { assistantRoutes } from "./assistant.routes";
import { assistantTried } from "./assistant.service";
import { slaClocks } from "./assistant.tips";
import { coreTools } from "./assistant.tools";

/** The assistant (src/assistant): conversations, runs with tools, approvals, tips (SLA ones through its `slaClocks` port). */
export const assistantModule = defineModule({
  name: "assistant",
  routes: (deps) => [assistantRoutes(deps, coreTools, deps.ports.get(slaClocks))],
  ports: [slaClocks],
  provides: [provide(tryAssistantProbe, async (db, ctx) => await assistantTried(db, ctx.workspaceId))],
});
