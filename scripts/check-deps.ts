/**
 * `bun run check:deps`: the import rules of .dependency-cruiser.cjs, plus cycles between folders.
 *
 * Folder cycles are computed here rather than with dependency-cruiser's folder scope, which counts
 * src/ as a folder holding every file below it (so src/deps.ts and src/registry.ts would put every
 * feature in one cycle). Here a node is a top-level folder of src/, or one root file of src/ on its
 * own; an edge is any import (type-only too) outside tests. A strongly connected set
 * holding two feature folders is a feature cycle; one holding two machinery folders is a machinery
 * cycle. An import from machinery to anything but machinery (a feature, or any root file, src/deps.ts
 * included, type-only or not) is already an error of the machinery rule, so it is left out of the
 * graph: each fault is reported once (src/http/server.ts importing src/app.ts would otherwise put every
 * feature in one cycle through the registry). Every other import counts, type-only ones included.
 * Exits 1 when anything is found. `bun scripts/check-deps.ts <dir>` checks another tree (the tests' fixtures).
 */
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { cruise, format, type ICruiseResult, type IConfiguration } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { MACHINERY } from "./machinery";

const root = process.argv[2] ? resolve(process.argv[2]) : join(import.meta.dir, "..");
process.chdir(root);
const config = createRequire(import.meta.url)("../.dependency-cruiser.cjs") as IConfiguration;

const cruised = await cruise(
  ["src"],
  { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true, outputType: "json" },
  undefined,
  { tsConfig: extractTSConfig("tsconfig.json") },
);
const result = (typeof cruised.output === "string" ? JSON.parse(cruised.output) : cruised.output) as ICruiseResult;

/** `src/tickets/x.ts` → `tickets/`; `src/registry.ts` → `registry.ts`; anything outside src → null. */
function nodeOf(path: string): string | null {
  const m = /^src\/([^/]+)(\/)?/.exec(path);
  if (!m) return null;
  return m[2] ? `${m[1]}/` : m[1]!;
}
const isFolder = (node: string) => node.endsWith("/");
const isMachinery = (node: string) => isFolder(node) && MACHINERY.has(node.slice(0, -1));
const isFeature = (node: string) => isFolder(node) && !isMachinery(node);

const edges = new Map<string, Map<string, string[]>>();
for (const module of result.modules) {
  if (/\.test\.tsx?$/.test(module.source)) continue;
  const from = nodeOf(module.source);
  if (!from) continue;
  for (const dependency of module.dependencies) {
    if (/\.test\.tsx?$/.test(dependency.resolved)) continue;
    const to = nodeOf(dependency.resolved);
    if (!to || to === from) continue;
    if (isMachinery(from) && !isMachinery(to)) continue;
    const targets = edges.get(from) ?? new Map<string, string[]>();
    edges.set(from, targets);
    const examples = targets.get(to) ?? [];
    targets.set(to, examples);
    examples.push(`${module.source} → ${dependency.resolved}`);
  }
}

/** Tarjan's strongly connected components, iteratively (no recursion limit to think about). */
function components(graph: Map<string, Map<string, string[]>>): string[][] {
  const nodes = new Set<string>([...graph.keys()]);
  for (const targets of graph.values()) for (const to of targets.keys()) nodes.add(to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  for (const start of [...nodes].sort()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: string[] }> = [];
    const visit = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: [...(graph.get(node)?.keys() ?? [])] });
    };
    visit(start);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const to = frame.next.shift();
      if (to !== undefined) {
        if (!index.has(to)) visit(to);
        else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (;;) {
          const node = stack.pop()!;
          onStack.delete(node);
          component.push(node);
          if (node === frame.node) break;
        }
        if (component.length > 1) found.push(component.sort());
      }
    }
  }
  return found;
}

const lines: string[] = [];
let folderCycles = 0;
for (const component of components(edges)) {
  const features = component.filter(isFeature);
  const machinery = component.filter(isMachinery);
  const kinds = [
    features.length > 1 ? `feature folders in one import cycle: ${features.length}` : null,
    machinery.length > 1 ? `machinery folders in one import cycle: ${machinery.length}` : null,
  ].filter((kind): kind is string => kind !== null);
  if (kinds.length === 0) continue;
  folderCycles++;
  lines.push(`  error folder-cycle: ${kinds.join("; ")}`, `    ${component.map((n) => `src/${n}`).join(", ")}`);
  lines.push("    imports inside the cycle (folder → folder: count, first one):");
  const members = new Set(component);
  // Imports of machinery are how every feature works; list them only when machinery is what loops.
  const shown = (to: string) => members.has(to) && (machinery.length > 1 || !isMachinery(to));
  for (const from of component)
    for (const [to, examples] of [...(edges.get(from) ?? [])].sort(([a], [b]) => a.localeCompare(b)))
      if (shown(to)) lines.push(`      ${from} → ${to}: ${examples.length}, ${examples[0]}`);
}

const ruleReport = await format(result, { outputType: "err-long" });
const violations = result.summary.violations.length;
if (violations > 0) process.stdout.write(String(ruleReport.output));
if (folderCycles > 0) console.log(lines.join("\n"));
const internals = new Set(
  result.summary.violations.filter((v) => v.rule.name === "feature-imports-internals").map((v) => v.from),
);
console.log(
  `check:deps: ${violations} import rule violation(s) (${internals.size} file(s) importing another feature's internals), ` +
    `${folderCycles} folder cycle(s); ${result.summary.totalCruised} modules cruised.`,
);
process.exit(violations > 0 || folderCycles > 0 ? 1 : 0);
