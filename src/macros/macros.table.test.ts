import { describe, expect, test } from "bun:test";
import { getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { getTableConfig, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { AutomationAction } from "../automations/automations.public";
import { createdAt, flag, id, json, updatedAt, workspaceId } from "../db/columns";
import { macrosTable } from "./macros.definition";
import type { macros } from "./macros.table";
import { macros as pgMacros } from "./macros.table.pg";

// The hand-written table the kit replaced: its build must match it in SQL, config and types.
const handWritten = sqliteTable(
  "macros",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    shared: flag("shared"),
    ownerId: text("owner_id"),
    actions: json<AutomationAction[]>("actions").notNull().default([]),
    position: integer("position").notNull().default(0),
    usageCount: integer("usage_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("macros_workspace_idx").on(t.workspaceId, t.position)],
);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameSelect: Same<typeof macros.$inferSelect, typeof handWritten.$inferSelect> = true;
const sameInsert: Same<typeof macros.$inferInsert, typeof handWritten.$inferInsert> = true;
// The PostgreSQL build answers rows of the same shape, so presenters and services need not change.
const samePgSelect: Same<typeof macrosTable.pg.$inferSelect, typeof handWritten.$inferSelect> = true;

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
  })),
  indexes: c.indexes.map(({ config: i }) => ({
    name: i.name,
    unique: i.unique,
    where: i.where,
    columns: i.columns.map((x) => ("name" in x ? x.name : x)),
  })),
  foreignKeys: c.foreignKeys.length,
  primaryKeys: c.primaryKeys.length,
});

describe("macros table from the schema kit", () => {
  test("the SQLite build is the hand-written table", () => {
    expect([sameSelect, sameInsert, samePgSelect]).toEqual([true, true, true]);
    // The SQLite build itself, whichever build this process's tables are (deskTable).
    expect(shape(getTableConfig(macrosTable.sqlite))).toEqual(shape(getTableConfig(handWritten)));
  });

  test("the PostgreSQL build keeps ids and times as text, flags as boolean and JSON as jsonb", () => {
    const cfg = pgConfig(pgMacros);
    const types = Object.fromEntries(cfg.columns.map((c) => [c.name, c.getSQLType()]));
    expect(types).toEqual({
      id: "text",
      workspace_id: "text",
      name: "text",
      description: "text",
      shared: "boolean",
      owner_id: "text",
      actions: "jsonb",
      position: "integer",
      usage_count: "integer",
      created_at: "text",
      updated_at: "text",
    });
    expect(cfg.indexes.map((i) => i.config.name)).toEqual(["macros_workspace_idx"]);
    expect(pgMacros).toBe(macrosTable.pg);
  });
});
