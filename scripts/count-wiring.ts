/**
 * `bun scripts/count-wiring.ts [dir]`: the figures the wiring review counts, printed one per line,
 * so a change to how modules connect is measured before and after on two checkouts:
 * machinery files importing a root file of src/, `event.data as` casts, module parameters and
 * run-time registrations, functions over 100 lines, and import circles between files of one folder.
 * Tests and testkits are left out. `--list` also prints what each figure counts.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { MACHINERY } from "./machinery";

const args = process.argv.slice(2);
const listing = args.includes("--list");
const root = resolve(args.find((arg) => !arg.startsWith("--")) ?? join(import.meta.dir, ".."));
const LONG_FUNCTION = 100;

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(name) && !/\.(test|testkit)\.tsx?$/.test(name)) yield path;
  }
}

const files = [...sourceFiles(join(root, "src"))].map((path) => ({
  path,
  rel: relative(root, path).split("\\").join("/"),
  text: readFileSync(path, "utf8"),
}));

const found = new Map<string, string[]>();
const count = (figure: string, where: string) => {
  const list = found.get(figure) ?? [];
  found.set(figure, list);
  list.push(where);
};
for (const figure of [
  "machinery files importing a root file",
  "event.data casts",
  "module parameters in the registry",
  "run-time registrations into another folder",
  "functions over 100 lines",
  "file circles inside a folder",
])
  found.set(figure, []);

const importsOf = (file: ts.SourceFile): string[] =>
  file.statements
    .filter(
      (s): s is ts.ImportDeclaration | ts.ExportDeclaration => ts.isImportDeclaration(s) || ts.isExportDeclaration(s),
    )
    .map((s) => (s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? s.moduleSpecifier.text : ""))
    .filter((spec) => spec.startsWith("."));

const resolveImport = (from: string, spec: string): string | null => {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")])
    if (files.some((f) => f.path === candidate)) return candidate;
  return null;
};

const folderOf = (rel: string): string | null => /^src\/([^/]+)\//.exec(rel)?.[1] ?? null;
const graph = new Map<string, string[]>();

for (const { path, rel, text } of files) {
  const kind = rel.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, kind);
  const folder = folderOf(rel);
  const targets: string[] = [];
  for (const spec of importsOf(file)) {
    const target = resolveImport(path, spec);
    if (!target) continue;
    const targetRel = relative(root, target).split("\\").join("/");
    if (folder && MACHINERY.has(folder) && /^src\/[^/]+$/.test(targetRel))
      count("machinery files importing a root file", `${rel} → ${targetRel}`);
    if (folder && folderOf(targetRel) === folder) targets.push(target);
  }
  graph.set(path, targets);

  for (const match of text.matchAll(/event\.data as\b/g))
    count("event.data casts", `${rel}:${text.slice(0, match.index).split("\n").length}`);

  const visit = (node: ts.Node) => {
    const isFunction =
      ts.isFunctionDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isMethodDeclaration(node);
    if (isFunction) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > LONG_FUNCTION) {
        const name =
          (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name
            ? node.name.getText(file)
            : ts.isVariableDeclaration(node.parent)
              ? node.parent.name.getText(file)
              : "(anonymous)";
        count("functions over 100 lines", `${rel}:${start + 1} ${name} (${end - start + 1} lines)`);
      }
    }
    // A call to another folder's register*/on* function that stores a callback in its state.
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && /^register[A-Z]/.test(node.expression.text)) {
      const declaredIn = file.statements.find(
        (s) =>
          ts.isImportDeclaration(s) &&
          s.importClause?.namedBindings &&
          ts.isNamedImports(s.importClause.namedBindings) &&
          s.importClause.namedBindings.elements.some((e) => e.name.text === (node.expression as ts.Identifier).text),
      ) as ts.ImportDeclaration | undefined;
      const spec =
        declaredIn && ts.isStringLiteral(declaredIn.moduleSpecifier) ? declaredIn.moduleSpecifier.text : null;
      const target = spec?.startsWith(".") ? resolveImport(path, spec) : null;
      const targetFolder = target ? folderOf(relative(root, target).split("\\").join("/")) : null;
      if (targetFolder && targetFolder !== folder && !MACHINERY.has(targetFolder))
        count("run-time registrations into another folder", `${rel}: ${node.expression.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);

  if (rel === "src/registry.ts") {
    const list = file.statements.find((s) => ts.isVariableStatement(s) && s.getText(file).includes("modules"));
    const findCalls = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text.endsWith("Module"))
        count("module parameters in the registry", node.getText(file).replace(/\s+/g, " ").slice(0, 120));
      ts.forEachChild(node, findCalls);
    };
    if (list) findCalls(list);
  }
}

/** Strongly connected sets of more than one file among imports inside one folder (Tarjan). */
let index = 0;
const indexOf = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const strongConnect = (node: string) => {
  indexOf.set(node, index);
  low.set(node, index);
  index++;
  stack.push(node);
  onStack.add(node);
  for (const next of graph.get(node) ?? []) {
    if (!indexOf.has(next)) {
      strongConnect(next);
      low.set(node, Math.min(low.get(node)!, low.get(next)!));
    } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
  }
  if (low.get(node) === indexOf.get(node)) {
    const members: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(relative(root, member));
    } while (member !== node);
    if (members.length > 1) count("file circles inside a folder", members.sort().join(" ↔ "));
  }
};
for (const node of graph.keys()) if (!indexOf.has(node)) strongConnect(node);

const registrySeams = files.some((f) => f.rel === "src/registry.seams.ts");
const composeLookups =
  files.find((f) => f.rel === "src/compose.ts")?.text.match(/^\s+[a-zA-Z]+: .*(Lookup|lookup|Of\b|View\b|Keys?\b)/gm) ??
  [];
for (const [figure, where] of found) {
  console.log(`${figure}: ${where.length}`);
  if (listing) for (const line of where) console.log(`  ${line}`);
}
console.log(`root adapters file (src/registry.seams.ts): ${registrySeams ? "present" : "gone"}`);
console.log(`machinery lookups wired in src/compose.ts: ${composeLookups.length}`);
