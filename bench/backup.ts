/**
 * Backup, verify and restore of a data dir, each as the operator runs it (its own process):
 *   DESK_DATA_DIR=/tmp/desk-bench-1m bun bench/backup.ts        (seed it first: scripts/seed.ts)
 * Prints wall time, peak RSS and sizes. Uses dist/desk when built, else `bun src/main.ts`.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dataDir = process.env.DESK_DATA_DIR;
if (!dataDir) throw new Error("set DESK_DATA_DIR to the data dir to back up");
const root = join(import.meta.dir, "..");
const binary = join(root, "dist", "desk");
const desk = existsSync(binary) ? [binary] : ["bun", join(root, "src", "main.ts")];
const work = mkdtempSync(join(process.env.BENCH_TMP ?? tmpdir(), "desk-bench-backup-"));
const archive = join(work, "desk.tar.gz");
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function timed(label: string, args: string[], env: Record<string, string> = {}) {
  const started = performance.now();
  const child = Bun.spawn([...desk, ...args], {
    env: { ...process.env, DESK_DATA_DIR: dataDir!, DESK_LOG_LEVEL: "warn", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  const seconds = (performance.now() - started) / 1000;
  const peak = child.resourceUsage()?.maxRSS ?? 0; // bytes
  if (code !== 0) throw new Error(`${label} failed (${code}): ${err || out}`);
  console.log(
    `${label.padEnd(8)} ${seconds.toFixed(1).padStart(7)} s   peak RSS ${mb(peak).padStart(7)}   ${out.trim()}`,
  );
}

try {
  const db = join(dataDir, "desk.db");
  console.log(
    `data dir ${dataDir}: desk.db ${mb(statSync(db).size)}, WAL ${mb(existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0)}`,
  );
  await timed("backup", ["backup", archive]);
  console.log(`archive ${mb(statSync(archive).size)}`);
  await timed("verify", ["backup", "--verify", archive]);
  const restored = join(work, "restored");
  await timed("restore", ["restore", archive, "--data-dir", restored]);
  console.log(`restored desk.db ${mb(statSync(join(restored, "desk.db")).size)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
