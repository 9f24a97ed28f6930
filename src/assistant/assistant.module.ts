import { defineModule } from "../module";
import { assistantRoutes } from "./assistant.routes";
import type { SlaClockReader } from "./assistant.tips";
import { type AssistantTool, coreTools } from "./assistant.tools";

export type AssistantSeams = {
  /** More tools (knowledge-base articles, SLA state, automations) added to the core ones. */
  tools?: AssistantTool[];
  /** The SLA feature's clocks, for the SLA tips (left out without it). */
  slaClocks?: SlaClockReader;
};

/** The assistant (src/assistant): conversations, runs with tools, approvals, tips. */
export function assistantModule(seams: AssistantSeams = {}) {
  const tools = [...coreTools, ...(seams.tools ?? [])];
  return defineModule({
    name: "assistant",
    routes: (deps) => [assistantRoutes(deps, tools, seams.slaClocks ?? null)],
  });
}
