import { describe, expect, test } from "bun:test";
import { migrations } from "../../../migrations/index";
import { postgresMigrations } from "../../../migrations/postgres/index";

describe("the PostgreSQL lineage", () => {
  test("stands for every SQLite migration, each exactly once, so both engines record the same tags", () => {
    const covered = postgresMigrations.flatMap((m) => m.covers);
    // Tags under postgres/ are PostgreSQL's own steps (state one SQLite process keeps in memory).
    const twins = covered.filter((tag) => !tag.startsWith("postgres/"));
    expect([...twins].sort()).toEqual(migrations.map((m) => m.tag).sort());
    expect(new Set(covered).size).toBe(covered.length);
  });
});
