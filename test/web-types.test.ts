import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { generateWebTypes, WEB_TYPES_PATH } from "../scripts/gen-web-types";

describe("web wire types", () => {
  test("web/src/lib/api-schema.ts matches /v1/openapi.json (run `bun run gen:web-types` after changing a schema)", async () => {
    const committed = readFileSync(WEB_TYPES_PATH, "utf8");
    // Compared whole: a stale file fails with the first differing line in the diff.
    expect(committed).toBe(await generateWebTypes());
  }, 30_000);
});
