/** What other features may use of the assistant: the tool and SLA seams to plug into it, and onboarding's check. */
export { assistantTried } from "./assistant.service";
export type { AssistantTool, ChangeTool, Preview, ReadTool } from "./assistant.tools";
export { slaClocks, type SlaClock, type SlaClockReader } from "./assistant.tips";
