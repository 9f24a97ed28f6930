import { expect, test } from "bun:test";
import { DEVELOPING_FILE, renderFeatureMap, withFeatureMap } from "../scripts/gen-feature-map";
import { startTestDesk } from "../test/harness";
import { modules } from "./registry";

test("docs/DEVELOPING.md's feature map is what the registered modules declare (run bun scripts/gen-feature-map.ts)", async () => {
  const desk = await startTestDesk({ env: { DESK_JOBS: "off" } });
  const page = await Bun.file(DEVELOPING_FILE).text();
  const map = renderFeatureMap(modules, (m) => (m.pages?.(desk.deps) ?? []).map((p) => p.path));
  expect(withFeatureMap(page, map)).toBe(page);
});
