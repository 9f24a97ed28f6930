import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.includes(".test.") && !entry.name.includes("testkit")
      ? [path]
      : [];
  });
}

const outside = sourceFiles(SRC).filter((path) => !relative(SRC, path).startsWith("tickets/"));
const TABLES = "(tickets|messages|activities)";

test("only the ticket API writes tickets, messages and activities", () => {
  const writers = outside.filter((path) => {
    const text = readFileSync(path, "utf8");
    return (
      new RegExp(`\\b(UPDATE|INSERT INTO|DELETE FROM)\\s+"?${TABLES}\\b`, "i").test(text) ||
      new RegExp(`\\.(update|insert|delete)\\(\\s*${TABLES}\\s*\\)`).test(text)
    );
  });
  expect(writers.map((path) => relative(SRC, path))).toEqual([]);
});

test("other features reach tickets only through tickets.public.ts", () => {
  const internal = outside.filter((path) => {
    const folder = relative(SRC, path).split("/")[0];
    // Reports and search still read the table for their aggregates; their owner moves them to public reads.
    if (folder === "reports" || folder === "search") return false;
    return /from\s+["']\.\.\/tickets\/(?!tickets\.public["'])/.test(readFileSync(path, "utf8"));
  });
  expect(internal.map((path) => relative(SRC, path))).toEqual([]);
});
