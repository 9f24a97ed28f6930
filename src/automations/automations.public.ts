/**
 * What other features may use of automations: the label rename cascade, the AI seams the AI feature
 * fills, and the action checks and runner that macros reuse.
 */
export { renameTagInAutomations } from "./automations.service";
export {
  automationAi,
  type AiJudge,
  type AiJudgeRequest,
  type AiJudgement,
  type AiTriage,
  type AutomationsOptions,
} from "./automations.ai";
export { checkAutomation } from "./automations.rules";
export { runActions, type PersonApplying } from "./automations.actions";
export { ACTION_TYPES, ActionSchema, type ActionType, type AutomationAction } from "./automations.schemas";
