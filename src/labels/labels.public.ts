/** What other features may use of labels: writing and reading a record's labels, name rules, definition access. */
export {
  applyLabelWrite,
  clearLabels,
  labelCount,
  labelFilterSql,
  labelNamed,
  labelsOf,
  ticketLabelChoices,
  type LabelKind,
  type LabelWrite,
  type LabelWriteResult,
  type TagRef,
} from "./labels.apply";
export { labelNameProblem, normalizeLabelName } from "./labels.rules";
export { LabelColorSchema, TagRefSchema } from "./labels.schemas";
export { DEFINITION_READ_SCOPES, requireAnyScope, settingsWrite } from "./labels.access";
export type { TagRenamed } from "./labels.service";
