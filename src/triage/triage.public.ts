/** What other features read of triage: the settings a triage run obeys (the AI engine). */
export { DEFAULT_TRIAGE, triageSettingsOf, type TriageSettings } from "./triage.service";
export type { TriageField } from "./triage.schemas";
