/** What other features may use of labels: writing and reading a record's labels, and list filters. */
export { applyLabelWrite, labelFilterSql, labelsOf, type TagRef } from "./labels.apply";
