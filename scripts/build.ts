/**
 * `bun run build`: builds the web app (when present) and compiles one executable, dist/desk,
 * with the migrations and the web app's files embedded.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { type BuildInfo, versionFromDescribe } from "../src/lib/version";

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
// libvips for sharp: the executable writes it under the data dir on the first picture (src/pictures/pictures.native.ts).
const libvipsDir = join(root, "node_modules", "@img", `sharp-libvips-${process.platform}-${process.arch}`, "lib");
const libvips = existsSync(libvipsDir) ? readdirSync(libvipsDir).find((n) => n.startsWith("libvips-cpp.")) : undefined;
if (libvips) imports.push(`import libvips from ${JSON.stringify(join(libvipsDir, libvips))} with { type: "file" };`);
const entries = files.map((f, i) => `  [${JSON.stringify(`/${relative(webDist, f).split("\\").join("/")}`)}, f${i}],`);
writeFileSync(
  join(buildDir, "entry.ts"),
  `${imports.join("\n")}
import { setEmbeddedWebFiles } from ${JSON.stringify(join(root, "src/http/embedded.ts"))};
import { setBuildInfo } from ${JSON.stringify(join(root, "src/lib/version.ts"))};
setBuildInfo(${JSON.stringify(stampedBuildInfo())});
setEmbeddedWebFiles(new Map<string, string>([
${entries.join("\n")}
]));
${libvips ? `import { setEmbeddedLibvips } from ${JSON.stringify(join(root, "src/pictures/pictures.native.ts"))};\nsetEmbeddedLibvips(libvips);` : ""}
await import(${JSON.stringify(join(root, "src/main.ts"))});
`,
);
const executable = join(root, "dist", "desk");

/** The executable cannot ask git at run time: its version and commit are written into the entry. */
function stampedBuildInfo(): BuildInfo {
  const git = (args: string[]) => {
    const result = Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "ignore" });
    return result.exitCode === 0 ? result.stdout.toString().trim() : null;
  };
  const commit = git(["rev-parse", "HEAD"]);
  const describe = git(["describe", "--tags", "--always", "--dirty"]);
  return { version: describe ? versionFromDescribe(describe, pkg.version) : pkg.version, commit };
}
/** How much later than normal functions tier up to the JIT while the executable starts. */
const STARTUP_JIT_POLICY = 1000;
const compile = (extra: string[] = []) =>
  run([
    "bun",
    "build",
    "--compile",
    "--minify",
    "--sourcemap",
    "--bytecode",
    "--format=esm",
    // Start-up code runs once: JIT-compiling it only costs memory (measured: idle RSS 88 → 80 MB).
    // src/main.ts puts the normal tier-up back once the server is up, so request paths JIT as usual.
    `--compile-jit-policy=${STARTUP_JIT_POLICY}`,
    ...extra,
    join(buildDir, "entry.ts"),
    // The read pool's worker (src/db/read-pool.ts) is its own entry point inside the executable.
    join(root, "src/read-worker.ts"),
    "--outfile",
    executable,
  ]);
compile();
// Second pass: lay the bytecode out in the order a start-up and a first request use it, so an idle
// server maps fewer pages of the executable (measured: idle RSS 81 → 74 MB).
const orderFile = join(buildDir, "bytecode-order.txt");
if (await recordStartupOrder(orderFile)) compile([`--bytecode-order=${orderFile}`]);
else console.warn("could not record the start-up bytecode order; dist/desk keeps the default layout");
console.log(`built dist/desk with ${files.length} web files embedded`);

/** Runs the fresh executable once (serve, one request, stop) with Bun writing the order it loaded functions in. */
async function recordStartupOrder(path: string): Promise<boolean> {
  const dataDir = join(buildDir, "order-run");
  // The SMTP receiver runs in the default configuration: its code belongs in the start-up order too.
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const smtpPort = probe.port;
  probe.stop(true);
  const child = Bun.spawn([executable, "serve"], {
    cwd: buildDir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      DESK_HOST: "127.0.0.1",
      DESK_PORT: "0",
      DESK_SMTP_PORT: String(smtpPort),
      DESK_DATA_DIR: dataDir,
      DESK_LOG_LEVEL: "info",
      BUN_BYTECODE_ORDER_OUT: path,
    },
    stdout: "pipe",
    stderr: "ignore",
  });
  const deadline = setTimeout(() => child.kill("SIGKILL"), 20_000);
  try {
    let output = "";
    const decoder = new TextDecoder();
    const reader = child.stdout.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      output += decoder.decode(value);
      const url = /"url":"(http:[^"]+)"/.exec(output)?.[1];
      if (!url) continue;
      await fetch(`${url}/healthz`).catch(() => undefined);
      // The minute jobs run once at start (src/jobs/runner.outcome.ts): let them finish, so their
      // code is laid out with start-up's rather than mapped in a minute into an idle server's life.
      await Bun.sleep(1500);
      child.kill("SIGTERM");
      break;
    }
    await child.exited;
    return existsSync(path);
  } finally {
    clearTimeout(deadline);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
