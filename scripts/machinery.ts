/**
 * The machinery folders of src/: below every feature, importing none (docs/DEVELOPING.md
 * "Architecture"). The checks share this list; .dependency-cruiser.cjs, being CommonJS, keeps a copy
 * that `scripts/check-deps.test.ts` compares with it.
 */
export const MACHINERY = new Set([
  "db",
  "http",
  "auth",
  "events",
  "jobs",
  "realtime",
  "mail",
  "lib",
  "config",
  "metrics",
  "i18n",
]);
