/**
 * `bun run check:clock`: time in src/ comes from the clock (deps.clock, or a Clock passed in), so
 * tests can move it. Fails on `new Date()` with no argument and on `Date.now()` anywhere in src/
 * outside src/lib/clock.ts; `new Date(x)` (parsing or copying a time) is fine. Also fails on any
 * mention of `systemClock` outside the clock itself, the composition root and CLI entry files
 * (`*.cli.ts`): a service that reads it directly is out of reach of a test's manual clock.
 * Tests and the fixtures they spawn are not checked: they read the wall time to wait for real peers
 * or to name things uniquely.
 * `bun scripts/check-clock.ts <dir>` checks another tree (the test's fixture).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const root = process.argv[2] ? resolve(process.argv[2]) : join(import.meta.dir, "..");
const src = join(root, "src");
const ALLOWED = new Set(["src/lib/clock.ts"]);
/** Where the system clock may be named: it is chosen once here and passed down as `deps.clock`. */
const MAY_NAME_SYSTEM_CLOCK = new Set([
  "src/lib/clock.ts",
  "src/compose.ts",
  "src/start.ts",
  "src/main.ts",
  // altcha checks a challenge's expiry against the wall time, so the contact form's and sign-in's
  // challenges and spent lists keep to it whatever clock a test runs.
  "src/portal/portal.pow.ts",
  "src/identity/challenge.ts",
  "src/identity/challenge.spent.ts",
  // The desk's clock before buildDeps sets the chosen one (a database opened by a script or test),
  // and the migration stamps of a database migrated with no desk around it (CLI commands, tests).
  "src/db/desk-clock.ts",
  "src/db/sqlite/migrate.ts",
  "src/db/postgres/migrate.ts",
]);
const isCliEntry = (rel: string) => rel.endsWith(".cli.ts");

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.tsx?$/.test(name)) yield path;
  }
}

/** `new Date()` (no argument, parentheses or not) and `Date.now()`, found in the syntax tree, so comments and strings never count. */
function readsOfSystemTime(file: ts.SourceFile): ts.Node[] {
  const hits: ts.Node[] = [];
  const isDate = (node: ts.Node) => ts.isIdentifier(node) && node.text === "Date";
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && isDate(node.expression) && (node.arguments?.length ?? 0) === 0) hits.push(node);
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      isDate(node.expression.expression) &&
      node.expression.name.text === "now"
    )
      hits.push(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return hits;
}

/** Every `systemClock` identifier (imports included, so an alias cannot hide it). */
function namesOfSystemClock(file: ts.SourceFile): ts.Node[] {
  const hits: ts.Node[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && node.text === "systemClock") hits.push(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return hits;
}

const found: string[] = [];
for (const path of files(src)) {
  const rel = relative(root, path).split("\\").join("/");
  if (/(\.test\.tsx?|-fixture\.ts)$/.test(rel)) continue;
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, false);
  const hits = [
    ...(ALLOWED.has(rel) ? [] : readsOfSystemTime(file)),
    ...(MAY_NAME_SYSTEM_CLOCK.has(rel) || isCliEntry(rel) ? [] : namesOfSystemClock(file)),
  ];
  for (const node of hits) {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    found.push(`${rel}:${line + 1}: ${text.split("\n")[line]!.trim()}`);
  }
}

if (found.length > 0) {
  console.log(found.join("\n"));
  console.log(
    `\ncheck:clock: ${found.length} read(s) of the system time outside src/lib/clock.ts; use deps.clock.now() ` +
      "(or take a Clock as a parameter). `new Date(value)` is fine; `systemClock` is named only by the " +
      "composition root and CLI entry files.",
  );
  process.exit(1);
}
console.log("check:clock: time in src/ comes from the clock.");
