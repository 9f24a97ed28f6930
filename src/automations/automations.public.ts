/** What other features may use of automations: the label rename cascade, and the AI seams the AI feature fills. */
export { renameTagInAutomations } from "./automations.service";
export type { AiJudge, AiJudgeRequest, AiJudgement, AiTriage, AutomationsOptions } from "./automations.ai";
