import { sql } from "drizzle-orm";
import {
  createdAt,
  flag,
  id,
  index,
  integer,
  json,
  perDialect,
  primaryKey,
  real,
  table,
  text,
  uniqueIndex,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): fields.table.ts builds it for
// SQLite (queries, types, migrations), fields.table.pg.ts for PostgreSQL.

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

export const customFieldsTable = table(
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
export const fieldValuesTable = table(
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
    primaryKey(t.entity, t.recordId, t.fieldId),
    // Filters read matching records from these (covering: record_id is in the key). Text compares
    // ignoring ASCII case like SQLite's lower(); exact matches (select, user) re-check the value.
    // PostgreSQL has no NOCASE collation: its filters compare lower(value_text), which this indexes.
    index("field_values_text_nocase_idx").on(
      t.fieldId,
      perDialect({ sqlite: sql`${t.valueText} COLLATE NOCASE`, pg: sql`lower(${t.valueText})` }),
      t.recordId,
    ),
    index("field_values_num_record_idx").on(t.fieldId, t.valueNum, t.recordId),
  ],
);
