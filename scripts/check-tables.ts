/**
 * `bun run check:tables`: only the folder that owns a table names it in raw SQL. Renaming a column
 * compiles and then fails at run time in every other folder's SQL string, so another folder asks
 * the owner for a read function or an SQL fragment (`reportableTicketsSql`) from its public file.
 * The owner of a table is the folder whose file exports `deskTable("name", …)`, or, for the tables
 * only hand-written migrations create, the folder named in CREATED_IN_MIGRATIONS below. Raw SQL is a
 * string or template literal in src/ (tests and testkits left out) that is an SQL statement (a `sql`
 * template, an argument of `.query`/`.prepare`/`.run`/…, or a literal with an upper-case SQL
 * keyword); it names a table after FROM/JOIN/INTO/UPDATE/TABLE, as `table.column`, in `bm25(table`
 * or as `table MATCH`. Interpolations (`${tickets}`, `${t.id.name}`) are the owner's own objects, so
 * they never count (check:deps keeps other folders' tables out of imports).
 * `bun scripts/check-tables.ts <dir>` checks another tree (the test's fixture, or a checkout to count);
 * `--list` prints every reference, allowed ones too.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { CREATED_IN_MIGRATIONS } from "./custom-tables";

const args = process.argv.slice(2);
const given = args.find((arg) => !arg.startsWith("--"));
const root = given ? resolve(given) : join(import.meta.dir, "..");
const src = join(root, "src");

/**
 * Files of this repository allowed to name a table another folder owns, while the work to stop it
 * is under way. It may only shrink: an allowance no longer used fails too. Another tree is checked
 * with none.
 */
const ALLOWANCES: Record<string, string[]> = {};

const folderOf = (rel: string): string => /^src\/([^/]+)\//.exec(rel)?.[1] ?? "src (root files)";

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.tsx?$/.test(name) && !/\.(test|testkit)\.tsx?$/.test(name)) yield path;
  }
}

const sources = [...files(src)].map((path) => {
  const rel = relative(root, path).split("\\").join("/");
  const text = readFileSync(path, "utf8");
  return { rel, text, file: ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX) };
});

/** `export const x = deskTable("name", …)`: a table of the schema. An unexported one is a local stand-in (a key for a foreign key, a derived table's name), not a claim to own it. */
function exportedTables(file: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression)) continue;
      if (init.expression.text !== "deskTable") continue;
      const name = init.arguments[0];
      if (name && ts.isStringLiteralLike(name)) names.push(name.text);
    }
  }
  return names;
}

const owners = new Map<string, string>(Object.entries(CREATED_IN_MIGRATIONS));
for (const { rel, file } of sources) for (const table of exportedTables(file)) owners.set(table, folderOf(rel));

const SQL_CALLS = new Set(["query", "prepare", "run", "all", "get", "values", "exec", "raw"]);
const SQL_WORDS = /\b(SELECT|INSERT|UPDATE|DELETE|FROM|JOIN|WHERE)\b/;
const NAMED_AS = [
  /\b(?:from|join|into|update|table)\s+"?([a-z_][a-z0-9_]*)"?/gi,
  /\b([a-z_][a-z0-9_]*)\.[a-z_][a-z0-9_]*\b/g,
  /\bbm25\(\s*([a-z_][a-z0-9_]*)/gi,
  /\b([a-z_][a-z0-9_]*)\s+MATCH\b/gi,
];

/** A literal handed to SQL: a `sql` (or `sql.raw`…) template, or an argument of a statement call. */
function inSqlPosition(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isTaggedTemplateExpression(parent)) {
    const tag = parent.tag.getText();
    return tag === "sql" || tag.startsWith("sql.");
  }
  if (ts.isCallExpression(parent) && parent.arguments.includes(node as ts.Expression)) {
    const callee = parent.expression;
    if (ts.isPropertyAccessExpression(callee)) return SQL_CALLS.has(callee.name.text);
  }
  return false;
}

/** The literal's source with every `${…}` blanked out (newlines kept), so only its own text is read. */
function ownText(
  node: ts.TemplateExpression | ts.StringLiteral | ts.NoSubstitutionTemplateLiteral,
  file: ts.SourceFile,
) {
  const start = node.getStart(file);
  let text = node.getText(file);
  if (ts.isTemplateExpression(node))
    for (const span of node.templateSpans) {
      const from = span.expression.getFullStart() - start;
      const to = span.expression.getEnd() - start;
      text = text.slice(0, from) + text.slice(from, to).replace(/[^\n]/g, " ") + text.slice(to);
    }
  return { start, text };
}

type Reference = { rel: string; table: string; where: string };
const references: Reference[] = [];
for (const { rel, file } of sources) {
  const folder = folderOf(rel);
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const { start, text } = ownText(node, file);
      if (inSqlPosition(node) || SQL_WORDS.test(text)) {
        const seen = new Set<string>();
        for (const pattern of NAMED_AS)
          for (const match of text.matchAll(pattern)) {
            const table = match[1]!.toLowerCase();
            const owner = owners.get(table);
            if (!owner || owner === folder) continue;
            const { line } = file.getLineAndCharacterOfPosition(start + match.index!);
            const where = `${rel}:${line + 1}: ${table} (owned by ${owner})`;
            if (seen.has(where)) continue;
            seen.add(where);
            references.push({ rel, table, where });
          }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

const ALLOWED = given ? {} : ALLOWANCES;
const isAllowed = (r: Reference) => ALLOWED[r.rel]?.includes(r.table) ?? false;
const faults = references.filter((r) => !isAllowed(r)).map((r) => r.where);
for (const [rel, tables] of Object.entries(ALLOWED))
  for (const table of tables)
    if (!references.some((r) => r.rel === rel && r.table === table))
      faults.push(`${rel}: ${table} is allowed but no longer named; take it off ALLOWED in scripts/check-tables.ts`);

const fileCount = new Set(references.map((r) => r.rel)).size;
if (args.includes("--list") || faults.length === 0)
  for (const r of references) console.log(`${r.where}${isAllowed(r) ? " [allowed]" : ""}`);
console.log(`check:tables: ${references.length} reference(s) in ${fileCount} file(s) to a table another folder owns.`);
if (faults.length > 0) {
  console.log(`\n${faults.join("\n")}`);
  console.log(
    `\ncheck:tables: ${faults.length} fault(s). Ask the table's owner for a read function or an SQL fragment ` +
      "from its public file, and compose that (see reportableTicketsSql).",
  );
  process.exit(1);
}
console.log(`check:tables: raw SQL names only its own folder's tables, or an allowed one (${owners.size} tables).`);
