/**
 * The store seam's rules, checked with the type checker (docs/DEVELOPING.md "The store seam"):
 * 1. No synchronous drizzle terminal (`.all() .get() .run() .values()` on a query builder): a
 *    builder is awaited, which both engines can do.
 * 2. No Promise of our own async functions dropped or used as a value that is always truthy: an
 *    unawaited store call runs outside the order (and the transaction) its caller assumes.
 *    Deliberate fire-and-forget is written `void promise.catch(…)`.
 * 3. The SQLite connection itself (`bun:sqlite`, `.$client`) only in src/db/sqlite/; its statements
 *    (`preparedFor`, `sqliteOf`) also in the SQLite side of a feature's `*.statements.ts` / `*.sql.ts`
 *    files, the code a PostgreSQL twin replaces.
 * 4. Tests go through the store too (`rowsOf`/`execute` from src/db/store.ts, awaited builders): no
 *    SQLite itself (as in 3) in a test file or a helper under test/, except a test about SQLite
 *    itself, named `*.sqlite.test.ts`, a helper named `*.sqlite.ts`, and src/db/ (SQLite's own layer).
 * Run: bun scripts/check-store.ts
 */
import ts from "typescript";
import { relative, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const config = ts.readConfigFile(`${root}/tsconfig.json`, ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
const program = ts.createProgram(parsed.fileNames, parsed.options);
const checker = program.getTypeChecker();

const TERMINALS = new Set(["all", "get", "run", "values"]);
const problems: string[] = [];

const isThenable = (type: ts.Type) =>
  [type, ...(type.isUnion() ? type.types : [])].some((t) => t.getProperty("then") !== undefined);
const declaredIn = (node: ts.Node) =>
  checker.getSymbolAtLocation(node)?.declarations?.[0]?.getSourceFile().fileName ?? "";
/** A call of a function declared in this project whose answer is a Promise. */
const isOwnAsyncCall = (node: ts.Expression): boolean => {
  if (!ts.isCallExpression(node) || !isThenable(checker.getTypeAtLocation(node))) return false;
  const declaration = checker.getResolvedSignature(node)?.declaration;
  const file = declaration?.getSourceFile().fileName ?? "";
  return file.startsWith(root) && !file.includes("/node_modules/");
};

for (const sourceFile of program.getSourceFiles()) {
  const file = sourceFile.fileName;
  if (!file.startsWith(root) || file.includes("/node_modules/") || file.includes("/web/")) continue;
  const report = (node: ts.Node, message: string) => {
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart());
    problems.push(`${relative(root, file)}:${line + 1}: ${message}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length === 0 && ts.isPropertyAccessExpression(node.expression)) {
      const callee = node.expression;
      if (
        TERMINALS.has(callee.name.text) &&
        declaredIn(callee.name).includes("drizzle-orm") &&
        isThenable(checker.getTypeAtLocation(callee.expression))
      )
        report(node, `synchronous drizzle terminal .${callee.name.text}(): await the builder instead`);
    }
    if (ts.isExpressionStatement(node) && isOwnAsyncCall(node.expression))
      report(node, "a Promise dropped: await it (or `void promise.catch(…)` when it may run on its own)");
    if ((ts.isIfStatement(node) || ts.isWhileStatement(node)) && isOwnAsyncCall(node.expression))
      report(node, "a Promise used as a condition: await it");
    if (
      ts.isPrefixUnaryExpression(node) &&
      node.operator === ts.SyntaxKind.ExclamationToken &&
      isOwnAsyncCall(node.operand)
    )
      report(node, "a Promise negated: await it");
    if (
      ts.isBinaryExpression(node) &&
      [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(
        node.operatorToken.kind,
      ) &&
      isOwnAsyncCall(node.left)
    )
      report(node, "a Promise as the left side of a logical operator: await it");
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
}

const SQLITE_ITSELF = /from "bun:sqlite"|\.\$client\b|\bpreparedFor\(|\bsqliteOf\(/;
// The connection itself (bun:sqlite, `$client`) only in the embedded engine's folder, src/db/sqlite/;
// PostgreSQL's folder, src/db/postgres/, holds its own client (`$client`, Bun's SQL), never bun:sqlite.
const SQLITE_CONNECTION = /from "bun:sqlite"|\.\$client\b/;
const SQLITE_MODULE = /from "bun:sqlite"/;
for (const sourceFile of program.getSourceFiles()) {
  const file = relative(root, sourceFile.fileName);
  if (!file.startsWith("src/") || file.startsWith("src/db/sqlite/") || /\.test\.ts$/.test(file)) continue;
  const connection = file.startsWith("src/db/postgres/") ? SQLITE_MODULE : SQLITE_CONNECTION;
  if (connection.test(sourceFile.text))
    problems.push(
      `${file}: reaches the SQLite connection outside src/db/sqlite/ (docs/DEVELOPING.md "The store seam")`,
    );
  else if (!file.startsWith("src/db/") && SQLITE_ITSELF.test(sourceFile.text) && !/\.(statements|sql)\.ts$/.test(file))
    problems.push(
      `${file}: reaches SQLite itself outside a *.statements.ts file: move the statement there (docs/DEVELOPING.md "The store seam")`,
    );
}

for (const sourceFile of program.getSourceFiles()) {
  const file = relative(root, sourceFile.fileName);
  const isTest = (file.startsWith("src/") && /\.test\.ts$/.test(file)) || file.startsWith("test/");
  if (!isTest || file.startsWith("src/db/") || /\.sqlite(\.test)?\.ts$/.test(file)) continue;
  if (SQLITE_ITSELF.test(sourceFile.text))
    problems.push(
      `${file}: a test reaches SQLite itself: use rowsOf/execute (src/db/store.ts) or awaited builders, or name a test about SQLite *.sqlite.test.ts (a helper *.sqlite.ts)`,
    );
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(`check:store: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log("check:store: ok");
