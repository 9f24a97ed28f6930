/** What other features may use of the assistant: the tool and SLA seams to plug into it. */
export type { AssistantTool, ChangeTool, Preview, ReadTool } from "./assistant.tools";
export type { SlaClock, SlaClockReader } from "./assistant.tips";
