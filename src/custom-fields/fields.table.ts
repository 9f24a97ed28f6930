import { deskTable } from "../db/schema-kit";
import { customFieldsTable, fieldValuesTable } from "./fields.definition";

export { FIELD_ENTITIES, FIELD_TYPES, type FieldOption, type FieldType } from "./fields.definition";

/** The builds of fields.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const customFields = deskTable("custom_fields", customFieldsTable);
export const fieldValues = deskTable("field_values", fieldValuesTable);
