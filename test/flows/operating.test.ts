import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { versionFromDescribe } from "../../src/lib/version";
import { freePort } from "../peers/dovecot";

/**
 * What an operator sees when starting Desk: the version it is, the migrations a start applies, and a
 * one-line refusal (no stack trace, exit 1) when its HTTP or SMTP port is already held, where Bun's
 * port reuse used to let a second Desk bind beside the first.
 */

const ROOT = join(import.meta.dir, "..", "..");
const BINARY = join(ROOT, "dist", "desk");
const command = existsSync(BINARY) ? [BINARY] : ["bun", join(ROOT, "src", "main.ts")];
const work = mkdtempSync(join(tmpdir(), "desk-operating-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function envFor(dataDir: string, port: number, smtpPort: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? work,
    DESK_DATA_DIR: dataDir,
    DESK_HOST: "127.0.0.1",
    DESK_PORT: String(port),
    DESK_SMTP_PORT: String(smtpPort),
    DESK_SECRET: "operating-test-secret-that-is-long-enough",
    DESK_JOBS: "off",
    DESK_LOG_LEVEL: "info",
  };
}

async function run(args: string[], env: Record<string, string>, timeoutMs = 20_000) {
  const child = Bun.spawn([...command, ...args], { cwd: work, env, stdout: "pipe", stderr: "pipe" });
  const killer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(killer);
  return { stdout, stderr, code };
}

async function untilHealthy(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await Bun.sleep(50);
  }
  throw new Error("the first desk never became healthy");
}

describe("version", () => {
  test("`desk version` and `desk --version` print the version and the commit", async () => {
    for (const arg of ["version", "--version"]) {
      const { stdout, code } = await run([arg], { PATH: process.env.PATH ?? "/usr/bin:/bin" });
      expect(code).toBe(0);
      expect(stdout).toMatch(/^desk \d+\.\d+\.\d+\S* \(commit [0-9a-f]{40}\)\n$/);
    }
  });

  test("git describe becomes a version that names the commits since the release", () => {
    expect(versionFromDescribe("v0.1.0-120-gb99273a", "0.1.0")).toBe("0.1.0+120.gb99273a");
    expect(versionFromDescribe("v0.1.0-3-gabc1234-dirty", "0.1.0")).toBe("0.1.0+3.gabc1234.dirty");
    expect(versionFromDescribe("v0.2.0", "0.1.0")).toBe("0.2.0");
    expect(versionFromDescribe("b99273a", "0.1.0")).toBe("0.1.0+gb99273a");
    expect(versionFromDescribe("something else", "0.1.0")).toBe("0.1.0");
  });
});

describe("start", () => {
  test("a fresh data dir logs each migration it applies", async () => {
    const port = await freePort();
    const child = Bun.spawn([...command, "serve"], {
      cwd: work,
      env: envFor(join(work, "fresh"), port, 0),
      stdout: "pipe",
      stderr: "pipe",
    });
    await untilHealthy(port);
    child.kill("SIGTERM");
    const stdout = await new Response(child.stdout).text();
    await child.exited;
    const applied = stdout
      .split("\n")
      .filter((line) => line.includes('"applied migration"'))
      .map((line) => JSON.parse(line).migration as string);
    expect(applied.length).toBeGreaterThan(10);
    expect(applied[0]).toMatch(/^0000_/);
  });

  test("a taken HTTP port is refused with one line naming it, not shared", async () => {
    const port = await freePort();
    const holder = Bun.spawn([...command, "serve"], {
      cwd: work,
      env: { ...envFor(join(work, "holder"), port, 0), DESK_LOG_LEVEL: "silent" },
      stdout: "ignore",
      stderr: "ignore",
    });
    try {
      await untilHealthy(port);
      const second = await run(["serve"], envFor(join(work, "second"), port, 0));
      expect(second.code).toBe(1);
      expect(second.stderr.trim()).toBe(
        `desk: refusing to start: the HTTP port 127.0.0.1:${port} is already in use (another Desk or another server listens there); stop it or choose another port`,
      );
    } finally {
      holder.kill("SIGKILL");
    }
  });

  test("a taken SMTP port is refused with one line naming it, without a stack trace", async () => {
    const smtpPort = await freePort();
    const holder = Bun.listen({ hostname: "127.0.0.1", port: smtpPort, socket: { data() {} } });
    try {
      const second = await run(["serve"], envFor(join(work, "smtp-second"), await freePort(), smtpPort));
      expect(second.code).toBe(1);
      expect(second.stderr.trim()).toBe(
        `desk: refusing to start: the SMTP port 127.0.0.1:${smtpPort} is already in use (another Desk or another server listens there); stop it or choose another port`,
      );
    } finally {
      holder.stop(true);
    }
  });
});
