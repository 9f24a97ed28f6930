/**
 * `bun run check:seams`: modules meet only through public imports, event definitions and ports
 * (docs/DEVELOPING.md "Checks"), so a misspelt event type or a moved field fails to compile.
 * Fails on, in src/ outside tests:
 * - `event.data as …`: a consumer's or hook's data is typed from the definitions it names;
 * - a consumer naming event types by string (`types: […]`, strings in `events` or `quiet.changedBy`);
 * - a hook on every event (`onEveryEvent`) outside machinery and the webhook fan-out;
 * - `enqueueByName` outside src/jobs: a feature enqueues its own job definition;
 * - a call of another feature folder's `register*` (state registered at run time into another module)
 *   outside machinery and src/start.ts: that is a port or an event.
 * Found in the syntax tree, so comments and strings never count.
 * `bun scripts/check-seams.ts <dir>` checks another tree (the test's fixture).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { MACHINERY } from "./machinery";

const root = process.argv[2] ? resolve(process.argv[2]) : join(import.meta.dir, "..");
const src = join(root, "src");
/** The one feature whose hook truly handles every event: each may be delivered to an endpoint. */
const ALL_EVENT_HOOKS = new Set(["src/webhooks/webhooks.delivery.ts"]);

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.tsx?$/.test(name) && !/\.(test|testkit)\.tsx?$/.test(name)) yield path;
  }
}

const folderOf = (rel: string): string | null => /^src\/([^/]+)\//.exec(rel)?.[1] ?? null;
const isMachinery = (rel: string) => MACHINERY.has(folderOf(rel) ?? "");

/** The folder of the file a name was imported from (relative imports only), or null. */
function importedFolder(file: ts.SourceFile, path: string, name: string): string | null {
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings) || !bindings.elements.some((e) => e.name.text === name)) continue;
    const spec = statement.moduleSpecifier.text;
    if (!spec.startsWith(".")) return null;
    return folderOf(
      relative(root, resolve(dirname(path), spec))
        .split("\\")
        .join("/"),
    );
  }
  return null;
}

const calledName = (node: ts.CallExpression): string | null =>
  ts.isIdentifier(node.expression) ? node.expression.text : null;

const hasStringElement = (node: ts.Expression | undefined) =>
  !!node && ts.isArrayLiteralExpression(node) && node.elements.some((e) => ts.isStringLiteralLike(e));

function propertyOf(object: ts.ObjectLiteralExpression, name: string): ts.PropertyAssignment | undefined {
  return object.properties.find(
    (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name,
  );
}

/** What a consumer declaration names by string instead of by definition. */
function consumerFaults(call: ts.CallExpression): string[] {
  const spec = call.arguments[0];
  if (!spec || !ts.isObjectLiteralExpression(spec)) return [];
  const faults: string[] = [];
  if (propertyOf(spec, "types")) faults.push("a consumer names its event types by string (`types:`)");
  if (hasStringElement(propertyOf(spec, "events")?.initializer))
    faults.push("a consumer names an event by string in `events`");
  const quiet = propertyOf(spec, "quiet")?.initializer;
  if (quiet && ts.isObjectLiteralExpression(quiet) && hasStringElement(propertyOf(quiet, "changedBy")?.initializer))
    faults.push("a consumer names an event by string in `quiet.changedBy`");
  return faults;
}

function faultsOf(file: ts.SourceFile, path: string, rel: string): Array<{ node: ts.Node; fault: string }> {
  const found: Array<{ node: ts.Node; fault: string }> = [];
  const folder = folderOf(rel);
  const visit = (node: ts.Node) => {
    if (
      ts.isAsExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "data" &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === "event"
    )
      found.push({ node, fault: "`event.data as`: type the data from the event definitions the reaction names" });
    if (ts.isIdentifier(node) && node.text === "enqueueByName" && folder !== "jobs")
      found.push({ node, fault: "`enqueueByName` outside src/jobs: enqueue the job's definition" });
    if (ts.isCallExpression(node)) {
      const name = calledName(node);
      if (name === "defineConsumer") for (const fault of consumerFaults(node)) found.push({ node, fault });
      if (name === "onEveryEvent" && !isMachinery(rel) && !ALL_EVENT_HOOKS.has(rel))
        found.push({ node, fault: "a hook on every event: name the event definitions (`onEvent`)" });
      if (name && /^register[A-Z]/.test(name) && !isMachinery(rel) && rel !== "src/start.ts") {
        const target = importedFolder(file, path, name);
        if (target && target !== folder && !MACHINERY.has(target))
          found.push({ node, fault: `\`${name}\` registers into src/${target} at run time: use a port or an event` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const found: string[] = [];
for (const path of files(src)) {
  const rel = relative(root, path).split("\\").join("/");
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  for (const { node, fault } of faultsOf(file, path, rel)) {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    found.push(`${rel}:${line + 1}: ${fault}`);
  }
}

if (found.length > 0) {
  console.log(found.join("\n"));
  console.log(
    `\ncheck:seams: ${found.length} fault(s); modules meet through public imports, event definitions and ports.`,
  );
  process.exit(1);
}
console.log("check:seams: reactions name event definitions; no run-time registration across modules.");
