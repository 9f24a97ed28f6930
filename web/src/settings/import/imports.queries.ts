import { defineResource } from "../../lib/realtime/invalidation";

export const importsKeys = { list: ["imports"] as const };

/** Settings → Import: each page an import commits arrives as `import.updated`, so the progress is live. */
export const importsResource = defineResource({
  name: "imports",
  keys: importsKeys,
  events: [{ on: ["import.*"], invalidate: () => [importsKeys.list] }],
});
