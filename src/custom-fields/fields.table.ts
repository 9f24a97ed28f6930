import { sqliteTable } from "../db/schema-kit";
import { customFieldsTable, fieldValuesTable } from "./fields.definition";

export { FIELD_ENTITIES, FIELD_TYPES, type FieldOption, type FieldType } from "./fields.definition";

/** The SQLite builds of fields.definition.ts: what every query, type and migration uses. */
export const customFields = sqliteTable("custom_fields", customFieldsTable);
export const fieldValues = sqliteTable("field_values", fieldValuesTable);
