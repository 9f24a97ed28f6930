/**
 * Generates the SQL migration for the current schema (all `src/**\/*.table.ts`) with drizzle-kit,
 * then writes `migrations/index.ts`, which embeds every migration in the executable.
 *
 * Migrations not yet committed to git are scratch: they are removed and regenerated as one, so
 * several people changing tables before a commit end up with a single clean migration.
 * Runs under a lock, so parallel calls wait for each other.
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const dir = join(root, "migrations");

if (!process.env.DESK_MIGRATIONS_LOCKED) {
  const child = Bun.spawnSync(
    ["flock", "/tmp/desk-migrations.lock", "bun", import.meta.path, ...process.argv.slice(2)],
    {
      env: { ...process.env, DESK_MIGRATIONS_LOCKED: "1" },
      stdio: ["ignore", "inherit", "inherit"],
      cwd: root,
    },
  );
  process.exit(child.exitCode ?? 1);
}

type Journal = {
  version: string;
  dialect: string;
  entries: Array<{ idx: number; tag: string; when: number; breakpoints: boolean; version: string }>;
};
const journalPath = join(dir, "meta", "_journal.json");

function tracked(): Set<string> {
  const out = Bun.spawnSync(["git", "ls-files", "migrations"], { cwd: root }).stdout.toString();
  return new Set(
    out
      .split("\n")
      .filter(Boolean)
      .map((p) => p.replace(/^migrations\//, "")),
  );
}

function dropScratch() {
  if (!existsSync(journalPath)) return;
  const committed = tracked();
  const journal: Journal = JSON.parse(readFileSync(journalPath, "utf8"));
  const keep = journal.entries.filter((e) => committed.has(`${e.tag}.sql`));
  for (const entry of journal.entries) {
    if (keep.includes(entry)) continue;
    rmSync(join(dir, `${entry.tag}.sql`), { force: true });
    rmSync(join(dir, "meta", `${String(entry.idx).padStart(4, "0")}_snapshot.json`), { force: true });
  }
  journal.entries = keep;
  if (keep.length === 0) rmSync(join(dir, "meta"), { recursive: true, force: true });
  else writeFileSync(journalPath, JSON.stringify(journal, null, 2));
}

dropScratch();
const name = process.argv[2] ?? "schema";
// drizzle-kit reads the tables' SQLite builds: a process told to run on PostgreSQL would build the others.
const { DESK_DATABASE_URL: _engine, ...sqliteEnv } = process.env;
const gen = Bun.spawnSync(["bun", "x", "drizzle-kit", "generate", "--name", name], {
  cwd: root,
  env: sqliteEnv,
  stdio: ["ignore", "inherit", "inherit"],
});
if (gen.exitCode !== 0) process.exit(gen.exitCode ?? 1);
// The PostgreSQL twin of the same change, from the tables' PostgreSQL builds (docs/DEVELOPING.md
// "Running on PostgreSQL"): a new file there joins migrations/postgres/index.ts by hand, naming the
// SQLite tag it stands for (src/db/postgres/lineage.test.ts fails until it does).
const pgGen = Bun.spawnSync(
  ["bun", "x", "drizzle-kit", "generate", "--config", "drizzle.pg.config.ts", "--name", name],
  { cwd: root, env: sqliteEnv, stdio: ["ignore", "inherit", "inherit"] },
);
if (pgGen.exitCode !== 0) process.exit(pgGen.exitCode ?? 1);

const journal: Journal = existsSync(journalPath)
  ? JSON.parse(readFileSync(journalPath, "utf8"))
  : ({ entries: [] } as unknown as Journal);
// Hand-written SQL drizzle-kit cannot express (FTS5 tables, triggers) lives in migrations/custom,
// applied after the generated ones, each once, in file-name order.
const customDir = join(dir, "custom");
const custom = existsSync(customDir)
  ? readdirSync(customDir)
      .filter((f) => f.endsWith(".sql"))
      .sort()
  : [];
const all = [
  ...journal.entries.map((e) => ({ tag: e.tag, file: `./${e.tag}.sql` })),
  ...custom.map((f) => ({ tag: `custom/${f.replace(/\.sql$/, "")}`, file: `./custom/${f}` })),
];
const imports = all.map((m, i) => `import m${i} from ${JSON.stringify(m.file)} with { type: "text" };`);
const list = all.map((m, i) => `  { tag: ${JSON.stringify(m.tag)}, sql: m${i} },`);
writeFileSync(
  join(dir, "index.ts"),
  `// Written by scripts/generate-migrations.ts: every migration, embedded in the executable.\nimport type { Migration } from "../src/db/sqlite/migrate";\n${imports.join("\n")}\n\nexport const migrations: Migration[] = [\n${list.join("\n")}\n];\n`,
);
console.log(`migrations: ${all.map((m) => m.tag).join(", ")}`);
for (const file of readdirSync(dir))
  if (file.endsWith(".sql") && !journal.entries.some((e) => `${e.tag}.sql` === file))
    console.warn(`stray migration file: ${file}`);
