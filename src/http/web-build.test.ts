import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync, symlinkSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { webBuildState } from "./web-build";

const ROOT = join(import.meta.dir, "..", "..");

/** A fresh clone as far as `bun start` sees it: sources without web/dist, node_modules installed. */
function freshClone(): string {
  const dir = mkdtempSync(join(tmpdir(), "desk-clone-"));
  for (const path of ["src", "migrations", "package.json", "tsconfig.json"])
    cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  cpSync(join(ROOT, "web"), join(dir, "web"), {
    recursive: true,
    filter: (src) => !src.startsWith(join(ROOT, "web", "dist")),
  });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/** `bun start` in `dir`: resolves with the URL once it serves, and with everything it logged. */
async function start(dir: string) {
  const dataDir = join(dir, "data");
  const child = Bun.spawn(["bun", "src/main.ts", "serve"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir,
      DESK_HOST: "127.0.0.1",
      DESK_PORT: "0",
      DESK_SMTP_PORT: "0",
      DESK_DATA_DIR: dataDir,
      DESK_LOG_LEVEL: "info",
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  const deadline = setTimeout(() => child.kill("SIGKILL"), 25_000);
  let log = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  let url: string | undefined;
  while (!url) {
    const { value, done } = await reader.read();
    if (done) break;
    log += decoder.decode(value);
    url = /"url":"(http:[^"]+)"/.exec(log)?.[1];
  }
  reader.releaseLock();
  clearTimeout(deadline);
  return {
    url,
    log,
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

describe("bun start from source builds the web app when needed", () => {
  const dir = freshClone();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a fresh clone serves the web app at / after building it, and says so", async () => {
    expect(webBuildState(join(dir, "web"))).toBe("missing");
    const desk = await start(dir);
    try {
      expect(desk.url).toBeString();
      expect(desk.log).toContain("web app not built yet");
      expect(desk.log).toContain("built the web app");
      const page = await fetch(`${desk.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(await page.text()).toContain('<div id="root">');
      // A client-side route gets the app too.
      expect((await fetch(`${desk.url}/inbox/unassigned`)).headers.get("content-type")).toContain("text/html");
    } finally {
      await desk.stop();
    }
    expect(webBuildState(join(dir, "web"))).toBe("fresh");
  }, 30_000);

  test("a second start with an up-to-date build does not build again", async () => {
    const desk = await start(dir);
    try {
      expect(desk.log).not.toContain("building web/dist");
      expect((await fetch(`${desk.url}/`)).headers.get("content-type")).toContain("text/html");
    } finally {
      await desk.stop();
    }
  }, 30_000);

  test("a source file newer than the build makes it stale", () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, "web", "src", "main.tsx"), later, later);
    expect(webBuildState(join(dir, "web"))).toBe("stale");
  });
});
