/**
 * The PostgreSQL builds of fields.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./fields.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { customFieldsTable, fieldValuesTable } from "./fields.definition";

export { FIELD_ENTITIES, FIELD_TYPES, type FieldOption, type FieldType } from "./fields.definition";

export const customFields = pgTable("custom_fields", customFieldsTable);
export const fieldValues = pgTable("field_values", fieldValuesTable);
