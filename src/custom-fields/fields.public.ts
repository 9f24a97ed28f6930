/** What other features may use of custom fields: writing and reading a record's values, and list filters. */
export {
  applyFieldWrite,
  applyFieldWriteWithValues,
  fieldFilterSql,
  fieldSortOrderSql,
  fieldSortSql,
  fieldValuesOf,
  missingRequiredOnSolve,
  parseFieldFilters,
  type FieldFilter,
} from "./fields.apply";
