import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../lib/logger";

/**
 * Running from source (`bun start` on a clone), the web app is served from web/dist, which no
 * one has built yet on a fresh clone and which goes stale after a pull. Serving then builds it
 * first so the README's `bun install && bun start` opens a working app. The compiled executable
 * embeds its web files and never gets here.
 */
export type WebBuildState = "missing" | "stale" | "fresh";

/** The web sources whose change calls for a new build: web/src, web/public and the files beside it. */
function newestSourceMtime(webDir: string): number {
  let newest = 0;
  const visit = (path: string) => {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return;
    if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else newest = Math.max(newest, info.mtimeMs);
  };
  visit(join(webDir, "src"));
  visit(join(webDir, "public"));
  for (const name of ["index.html", "vite.config.ts", "tsconfig.json"]) visit(join(webDir, name));
  return newest;
}

export function webBuildState(webDir: string): WebBuildState {
  // vite writes dist/index.html last on every build, so its time is the build's time.
  const built = statSync(join(webDir, "dist", "index.html"), { throwIfNoEntry: false });
  if (!built) return "missing";
  return newestSourceMtime(webDir) > built.mtimeMs ? "stale" : "fresh";
}

/** A source tree holds web/src and the vite config; a compiled executable's virtual dir holds neither. */
export const hasWebSources = (webDir: string): boolean =>
  existsSync(join(webDir, "src")) && existsSync(join(webDir, "vite.config.ts"));

/**
 * Builds web/dist when it is missing or older than its sources, and says so in the log. A failed
 * build is logged and start-up goes on: the API still serves, and an older build if there is one.
 */
export async function ensureWebBuild(webDir: string, logger: Logger): Promise<WebBuildState | "failed"> {
  if (!hasWebSources(webDir)) return "fresh";
  const state = webBuildState(webDir);
  if (state === "fresh") return state;
  logger.info(
    { web_dir: webDir, reason: state },
    state === "missing" ? "web app not built yet: building web/dist" : "web app sources changed: rebuilding web/dist",
  );
  const started = performance.now();
  const build = Bun.spawn(["bun", "x", "vite", "build", "--logLevel", "warn"], {
    cwd: webDir,
    stdout: "ignore",
    stderr: "pipe",
  });
  const [code, stderr] = await Promise.all([build.exited, new Response(build.stderr).text()]);
  if (code !== 0) {
    logger.error(
      { web_dir: webDir, exit_code: code, output: stderr.slice(-2000) },
      "building the web app failed; run `bun run build:web` to see why",
    );
    return "failed";
  }
  logger.info({ web_dir: webDir, ms: Math.round(performance.now() - started) }, "built the web app");
  return state;
}
