import { describe, expect, test } from "bun:test";
import { is, SQL, sql } from "drizzle-orm";
import { PgDialect, getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import {
  getTableConfig,
  index,
  integer,
  primaryKey,
  real,
  SQLiteSyncDialect,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, json, updatedAt, workspaceId } from "../db/columns";
import { customFieldsTable, fieldValuesTable } from "./fields.definition";
import { type customFields, FIELD_ENTITIES, FIELD_TYPES, type FieldOption, type fieldValues } from "./fields.table";

// The hand-written tables the kit replaced (as committed before it): the builds must match them in SQL, config and types.
const handCustomFields = sqliteTable(
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
const handFieldValues = sqliteTable(
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

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = [
  true satisfies Same<typeof customFields.$inferSelect, typeof handCustomFields.$inferSelect>,
  true satisfies Same<typeof customFields.$inferInsert, typeof handCustomFields.$inferInsert>,
  true satisfies Same<typeof fieldValues.$inferSelect, typeof handFieldValues.$inferSelect>,
  true satisfies Same<typeof fieldValues.$inferInsert, typeof handFieldValues.$inferInsert>,
  // The PostgreSQL builds answer rows of the same shape, so presenters and services need not change.
  true satisfies Same<typeof customFieldsTable.pg.$inferSelect, typeof handCustomFields.$inferSelect>,
  true satisfies Same<typeof fieldValuesTable.pg.$inferSelect, typeof handFieldValues.$inferSelect>,
  true satisfies Same<typeof fieldValuesTable.pg.$inferInsert, typeof handFieldValues.$inferInsert>,
];

const sqlite = new SQLiteSyncDialect();
const pg = new PgDialect();
const text_ = (d: SQLiteSyncDialect | PgDialect, x: unknown) => (is(x, SQL) ? d.sqlToQuery(x, "indexes").sql : x);

const shape = (c: ReturnType<typeof getTableConfig>) => ({
  name: c.name,
  columns: c.columns.map((k) => ({
    key: k.name,
    type: k.getSQLType(),
    notNull: k.notNull,
    primary: k.primary,
    default: k.default,
    hasDefault: k.hasDefault,
    kind: k.columnType,
    enumValues: k.enumValues,
  })),
  indexes: c.indexes.map(({ config: i }) => ({
    name: i.name,
    unique: i.unique,
    where: text_(sqlite, i.where),
    columns: i.columns.map((x) => ("name" in x ? x.name : text_(sqlite, x))),
  })),
  foreignKeys: c.foreignKeys.length,
  primaryKeys: c.primaryKeys.map((k) => k.columns.map((c) => c.name)),
});

describe("custom field tables from the schema kit", () => {
  test("the SQLite builds are the hand-written tables", () => {
    expect(same.every(Boolean)).toBe(true);
    // The builds themselves: `customFields` is the PostgreSQL build in a process running on PostgreSQL.
    expect(shape(getTableConfig(customFieldsTable.sqlite))).toEqual(shape(getTableConfig(handCustomFields)));
    expect(shape(getTableConfig(fieldValuesTable.sqlite))).toEqual(shape(getTableConfig(handFieldValues)));
  });

  test("the PostgreSQL build indexes lower(value_text) where SQLite collates NOCASE", () => {
    const cfg = pgConfig(fieldValuesTable.pg);
    const nocase = cfg.indexes.find((i) => i.config.name === "field_values_text_nocase_idx");
    expect(nocase?.config.columns.map((x) => ("name" in x && x.name ? x.name : text_(pg, x)))).toEqual([
      "field_id",
      'lower("value_text")',
      "record_id",
    ]);
    expect(cfg.columns.find((c) => c.name === "value_num")?.getSQLType()).toBe("double precision");
    expect(cfg.columns.find((c) => c.name === "value_json")?.getSQLType()).toBe("jsonb");
  });
});
