/**
 * `bun scripts/gen-feature-map.ts`: writes the feature map of docs/DEVELOPING.md (between its
 * `feature-map` markers) from what the registered modules declare: each module's folder, the tables
 * its folder owns (`deskTable("…")`, and those created in migrations/custom), its event types,
 * jobs, consumers, the ports it declares and provides, and its pages. `src/feature-map.test.ts`
 * fails while the page is stale.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FeatureModule } from "../src/module";
import { CREATED_IN_MIGRATIONS } from "./custom-tables";

const ROOT = join(import.meta.dir, "..");
export const DEVELOPING_FILE = join(ROOT, "docs", "DEVELOPING.md");
const START = "<!-- feature-map:start (bun scripts/gen-feature-map.ts) -->";
const END = "<!-- feature-map:end -->";

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.ts$/.test(name) && !/\.(test|testkit)\.ts$/.test(name)) yield path;
  }
}

/** The folder of src/ each module is defined in (machinery's modules: the folder of their name). */
function moduleFolders(): Map<string, string> {
  const folders = new Map<string, string>();
  for (const path of sourceFiles(join(ROOT, "src"))) {
    const folder = /src\/([^/]+)\//.exec(path)?.[1];
    if (!folder) continue;
    const text = readFileSync(path, "utf8");
    for (const match of text.matchAll(/defineModule\(\{\s*name: "([^"]+)"/g)) folders.set(match[1]!, folder);
  }
  return folders;
}

/** Each folder's tables: Drizzle's `deskTable("name"` and the custom migrations' `CREATE … TABLE`. */
function tablesByFolder(customOwners: Readonly<Record<string, string>>): Map<string, string[]> {
  const owned = new Map<string, string[]>();
  const add = (folder: string, table: string) => owned.set(folder, [...(owned.get(folder) ?? []), table]);
  for (const path of sourceFiles(join(ROOT, "src"))) {
    const folder = /src\/([^/]+)\//.exec(path)?.[1];
    if (!folder) continue;
    // Exported tables only: an unexported stand-in (a foreign key's target) claims nothing.
    const text = readFileSync(path, "utf8");
    for (const match of text.matchAll(/export const \w+ = deskTable\(\s*"([a-z_0-9]+)"/g)) add(folder, match[1]!);
  }
  for (const [table, folder] of Object.entries(customOwners)) add(folder, table);
  return owned;
}

const list = (names: readonly string[]) => (names.length === 0 ? "" : names.map((n) => `\`${n}\``).join(", "));

export function renderFeatureMap(
  modules: readonly FeatureModule[],
  pagePaths: (module: FeatureModule) => string[],
  customOwners: Readonly<Record<string, string>> = CREATED_IN_MIGRATIONS,
): string {
  const folders = moduleFolders();
  const tables = tablesByFolder(customOwners);
  const shown = new Set<string>();
  const rows = modules.map((module) => {
    // Machinery's modules are declared in src/machinery.modules.ts, each after its folder when it has one.
    const folder =
      folders.get(module.name) ?? (existsSync(join(ROOT, "src", module.name)) ? module.name : "machinery.modules.ts");
    // A folder with several modules (contacts and companies) lists its tables once.
    const folderTables = shown.has(folder) ? [] : (tables.get(folder) ?? []).sort();
    shown.add(folder);
    return [
      `\`${module.name}\``,
      `src/${folder}`,
      list(folderTables),
      list((module.events ?? []).map((e) => e.type)),
      list((module.ports ?? []).map((p) => p.name)),
      list((module.provides ?? []).map((b) => b.port.name)),
      list([...(module.jobs ?? []).map((j) => j.name), ...(module.consumers ?? []).map((c) => c.name)]),
      list(pagePaths(module)),
    ];
  });
  const header = [
    "module",
    "folder",
    "tables",
    "events",
    "ports declared",
    "ports provided",
    "jobs, consumers",
    "pages",
  ];
  return [
    START,
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((cells) => `| ${cells.join(" | ")} |`),
    "",
    `Tables of folders with no module of their own: ${[...tables]
      .filter(([folder]) => !shown.has(folder))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([folder, names]) => `src/${folder} ${list(names.sort())}`)
      .join("; ")}.`,
    END,
  ].join("\n");
}

/** DEVELOPING.md with its feature map replaced by `map`. */
export function withFeatureMap(page: string, map: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/DEVELOPING.md has no ${START} … ${END} block`);
  return page.slice(0, start) + map + page.slice(end + END.length);
}

if (import.meta.main) {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { loadConfig } = await import("../src/config/config");
  const { buildDeps } = await import("../src/compose");
  const { modules } = await import("../src/registry");
  const dataDir = mkdtempSync(join(tmpdir(), "desk-feature-map-"));
  const deps = await buildDeps(loadConfig({ DESK_DATA_DIR: dataDir, DESK_LOG_LEVEL: "silent", DESK_JOBS: "off" }));
  const map = renderFeatureMap(modules, (m) => (m.pages?.(deps) ?? []).map((p) => p.path));
  deps.db.$client.close();
  rmSync(dataDir, { recursive: true, force: true });
  await Bun.write(DEVELOPING_FILE, withFeatureMap(readFileSync(DEVELOPING_FILE, "utf8"), map));
  console.log("docs/DEVELOPING.md: feature map written");
}
