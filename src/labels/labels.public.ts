/** What other features may use of labels: writing and reading a record's labels, name rules, definition access. */
import { definePort } from "../lib/ports";
import type { TagRenamed } from "./labels.service";

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

/**
 * What follows a label's new name, in the label change's transaction: views' `tag` filters and
 * automations' tag conditions and actions. Both features build on labels, so labels never import them.
 */
export const tagRenamedInViews = definePort<TagRenamed>("labels.tagRenamedInViews");
export const tagRenamedInAutomations = definePort<TagRenamed>("labels.tagRenamedInAutomations");
export { labelCreationSetting, type LabelCreationSetting } from "./labels.ports";
