/**
 * Idle memory of `dist/desk serve` in the default configuration (SMTP receiver on, jobs and
 * consumers running, nobody using it), aim < 80 MB. The executable is copied first: a file just
 * written sits in the page cache in large pieces and maps more of itself than one read back from
 * disk, so the copy is the worse case an operator meets right after an install or upgrade.
 * VmRSS is sampled every second for the whole window, which by default crosses a minute boundary
 * (the minute jobs run there), and the maximum is what counts.
 *
 *   bun bench/idle-rss.ts [seconds=75]
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/peers/dovecot";

export type IdleRss = {
  /** MB, 2 s after /healthz first answers. */
  atTwoSeconds: number;
  /** MB, the largest sample of the window. */
  max: number;
  /** MB at the end of the window, split into anonymous memory and mapped files. */
  final: { total: number; anon: number; file: number };
};

const mb = (status: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;

export async function measureIdleRss(seconds: number): Promise<IdleRss | null> {
  const source = join(import.meta.dir, "..", "dist", "desk");
  if (!existsSync(source)) return null;
  const dir = mkdtempSync(join(tmpdir(), "desk-rss-"));
  const binary = join(dir, "desk");
  copyFileSync(source, binary);
  const port = await freePort();
  const smtpPort = await freePort();
  const child = Bun.spawn([binary, "serve"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      DESK_PORT: String(port),
      DESK_SMTP_PORT: String(smtpPort),
      DESK_DATA_DIR: join(dir, "data"),
      DESK_LOG_LEVEL: "warn",
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const status = () => Bun.file(`/proc/${child.pid}/status`).text();
  try {
    for (let i = 0; i < 200; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (up) break;
      await Bun.sleep(50);
    }
    let atTwoSeconds = Number.NaN;
    let max = 0;
    for (let second = 1; second <= seconds; second++) {
      await Bun.sleep(1000);
      const total = mb(await status(), "VmRSS");
      if (second === 2) atTwoSeconds = total;
      max = Math.max(max, total);
    }
    const last = await status();
    return {
      atTwoSeconds,
      max,
      final: { total: mb(last, "VmRSS"), anon: mb(last, "RssAnon"), file: mb(last, "RssFile") },
    };
  } finally {
    child.kill("SIGTERM");
    await child.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

export function describeIdleRss(rss: IdleRss, seconds: number): string {
  const f = (v: number) => v.toFixed(1);
  return `idle RSS of dist/desk serve (default configuration, fresh copy): ${f(rss.atTwoSeconds)} MB at 2 s, max ${f(rss.max)} MB over ${seconds} s (aim < 80); at the end ${f(rss.final.total)} MB = ${f(rss.final.anon)} anonymous + ${f(rss.final.file)} mapped files`;
}

if (import.meta.main) {
  const seconds = Number(process.argv[2] ?? 75);
  const rss = await measureIdleRss(seconds);
  console.log(rss ? describeIdleRss(rss, seconds) : "dist/desk not built: run `bun run build` first");
}
