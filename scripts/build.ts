/**
 * `bun run build`: builds the web app (when present) and compiles one executable, dist/desk,
 * with the migrations and the web app's files embedded.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..");
const webDir = join(root, "web");
const webDist = join(webDir, "dist");
const buildDir = join(root, "dist", ".build");

function run(cmd: string[], cwd = root) {
  const result = Bun.spawnSync(cmd, { cwd, stdio: ["ignore", "inherit", "inherit"] });
  if (result.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed with ${result.exitCode}`);
}

if (existsSync(join(webDir, "vite.config.ts"))) run(["bun", "x", "vite", "build"], webDir);

rmSync(buildDir, { recursive: true, force: true });
mkdirSync(buildDir, { recursive: true });

// An entry that embeds every built web file (`type: "file"`) and registers them before main runs.
const files: string[] = [];
const walk = (dir: string) => {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else files.push(full);
  }
};
if (existsSync(webDist)) walk(webDist);
const imports = files.map((f, i) => `import f${i} from ${JSON.stringify(f)} with { type: "file" };`);
const entries = files.map((f, i) => `  [${JSON.stringify("/" + relative(webDist, f).split("\\").join("/"))}, f${i}],`);
writeFileSync(
  join(buildDir, "entry.ts"),
  `${imports.join("\n")}
import { setEmbeddedWebFiles } from ${JSON.stringify(join(root, "src/http/embedded.ts"))};
setEmbeddedWebFiles(new Map<string, string>([
${entries.join("\n")}
]));
await import(${JSON.stringify(join(root, "src/main.ts"))});
`,
);
run(["bun", "build", "--compile", "--minify", "--sourcemap", "--bytecode", "--format=esm", join(buildDir, "entry.ts"), "--outfile", join(root, "dist", "desk")]);
console.log(`built dist/desk with ${files.length} web files embedded`);
