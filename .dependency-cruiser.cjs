// Import rules for src/ (docs/DEVELOPING.md "Checks"). Run with `bun run check:deps`, which also
// checks cycles between folders: dependency-cruiser's folder scope counts src/ itself as a folder
// holding every file below it, so every feature would look circular through src/deps.ts and
// src/registry.ts; scripts/check-deps.ts computes folder cycles from this cruise instead.
// Test files are not cruised; the kits tests share live in test/kit/, outside src/.

/** Machinery: never imports a feature or a root file of src/ (docs/DEVELOPING.md). */
const MACHINERY = ["db", "http", "auth", "events", "jobs", "realtime", "mail", "lib", "config", "metrics", "i18n"];
const machinery = `^src/(${MACHINERY.join("|")})/`;
/** Any file in a feature folder: every folder of src/ that is not machinery. */
const feature = `^src/(?!(${MACHINERY.join("|")})/)[^/]+/`;
// Tests and the fixtures tests spawn as child processes (`*-fixture.ts`) are test code.
const testCode = "(\\.test\\.tsx?|-fixture\\.ts)$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "machinery-imports-feature",
      severity: "error",
      comment:
        "Machinery (db, http, auth, events, jobs, realtime, mail, lib, config, metrics, i18n) never imports a " +
        "feature or a root file of src/ (deps, registry, start, app, compose, module, main), not even for a type: " +
        "it declares the narrow type it takes and an interface, and the composition root passes the feature's function in.",
      from: { path: machinery, pathNot: testCode },
      to: { path: "^src/", pathNot: machinery },
    },
    {
      name: "feature-imports-internals",
      severity: "error",
      comment:
        "A feature imports another feature only through that feature's *.public.ts files; never its tables, " +
        "statements, repo, services or write internals.",
      from: { path: "^src/([^/]+)/", pathNot: [machinery, testCode] },
      to: { path: feature, pathNot: ["^src/$1/", "\\.public\\.ts$"] },
    },
    {
      name: "module-outside-registry",
      severity: "error",
      comment: "Only src/registry.ts imports a feature's *.module.ts; everything else reads the registry's list.",
      from: { pathNot: ["^src/registry\\.ts$", testCode] },
      to: { path: "\\.module\\.ts$" },
    },
    {
      name: "test-code-in-production",
      severity: "error",
      comment: "test/ helpers and kits (test/kit/) are for tests only; production code never imports them.",
      from: { path: "^src/", pathNot: testCode },
      to: { path: "^test/" },
    },
    {
      name: "not-resolvable",
      severity: "error",
      comment: "An import that resolves to nothing (a moved file not followed by its importers).",
      from: {},
      to: { couldNotResolve: true, dependencyTypesNot: ["core"] },
    },
  ],
  options: {
    exclude: { path: ["\\.test\\.tsx?$", "node_modules"] },
    doNotFollow: { path: "node_modules" },
    // Type-only imports couple folders as much as value imports do.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types", "bun"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    skipAnalysisNotInRules: true,
  },
};
