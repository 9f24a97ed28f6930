// Written by scripts/generate-migrations.ts: every migration, embedded in the executable.
import type { Migration } from "../src/db/migrate";
import m0 from "./0000_foundation.sql" with { type: "text" };

export const migrations: Migration[] = [
  { tag: "0000_foundation", sql: m0 },
];
