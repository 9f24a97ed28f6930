/** What other features may use of custom fields: writing, reading, filtering and sorting a record's values. */
export {
  applyFieldWrite,
  applyFieldWriteWithValues,
  clearFieldValues,
  fieldDefinitions,
  fieldFilterSql,
  fieldSortOrderSql,
  fieldSortSql,
  fieldValuesOf,
  missingRequiredOnSolve,
  parseFieldFilters,
  type FieldChange,
  type FieldEntity,
  type FieldFilter,
} from "./fields.apply";
export { checkFieldValue, type FieldDef } from "./fields.values";
export { createField, updateField } from "./fields.service";
export { fieldValuePrefixSql, fieldValueRecordsAmongSql, fieldValueScoredHitsSql } from "./fields.search-sql";
