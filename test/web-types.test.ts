import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { generateWebTypes, WEB_TYPES_PATH } from "../scripts/gen-web-types";
import { onPostgres } from "./kit/postgres";

// The generator starts a desk of its own on a SQLite file (scripts/gen-web-types.ts), which a process
// running on PostgreSQL cannot open; the document it reads is the same on either engine.
describe.skipIf(onPostgres)("web wire types", () => {
  test("web/src/lib/api-schema.ts matches /v1/openapi.json (run `bun run gen:web-types` after changing a schema)", async () => {
    const committed = readFileSync(WEB_TYPES_PATH, "utf8");
    // Compared whole: a stale file fails with the first differing line in the diff.
    expect(committed).toBe(await generateWebTypes());
  }, 30_000);
});
