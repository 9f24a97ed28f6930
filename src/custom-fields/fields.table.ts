import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, json, updatedAt, workspaceId } from "../db/columns";

export const FIELD_ENTITIES = ["ticket", "contact", "company"] as const;
export const FIELD_TYPES = [
  "text",
  "long_text",
  "number",
  "select",
  "multi_select",
  "date",
  "checkbox",
  "url",
  "email",
  "user",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export type FieldOption = { id: string; label: string; color: string };

export const customFields = sqliteTable(
  "custom_fields",
  {
    id: id(),
    workspaceId: workspaceId(),
    entity: text("entity", { enum: FIELD_ENTITIES }).notNull(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    type: text("type", { enum: FIELD_TYPES }).notNull(),
    options: json<FieldOption[]>("options").notNull().default([]),
    requiredOnSolve: flag("required_on_solve"),
    description: text("description").notNull().default(""),
    position: integer("position").notNull().default(0),
    archived: flag("archived"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("custom_fields_key_unique").on(t.workspaceId, t.entity, t.key)],
);

/**
 * One stored value per (record, field). text, long_text, url, email, select, date and user values
 * sit in value_text (search indexes it), number and checkbox in value_num, multi_select in value_json.
 */
export const fieldValues = sqliteTable(
  "field_values",
  {
    workspaceId: workspaceId(),
    entity: text("entity", { enum: FIELD_ENTITIES }).notNull(),
    recordId: text("record_id").notNull(),
    fieldId: text("field_id").notNull(),
    valueText: text("value_text"),
    valueNum: real("value_num"),
    valueJson: json<string[]>("value_json"),
  },
  (t) => [
    primaryKey({ columns: [t.entity, t.recordId, t.fieldId] }),
    // Filters read matching records from these (covering: record_id is in the key). Text compares
    // ignoring ASCII case like SQLite's lower(); exact matches (select, user) re-check the value.
    index("field_values_text_nocase_idx").on(t.fieldId, sql`${t.valueText} COLLATE NOCASE`, t.recordId),
    index("field_values_num_record_idx").on(t.fieldId, t.valueNum, t.recordId),
  ],
);
