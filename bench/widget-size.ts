/**
 * The chat widget's size as customers' pages load it: builds web/dist/widget/widget.js when it is
 * missing, then prints its raw and gzipped bytes against the 40 KB budget.
 * Run: bun bench/widget-size.ts
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const web = join(import.meta.dir, "..", "web");
const file = join(web, "dist", "widget", "widget.js");
if (!existsSync(file)) {
  const build = Bun.spawnSync(["bun", "x", "vite", "build", "-c", "vite.widget.config.ts"], {
    cwd: web,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (build.exitCode !== 0) throw new Error("the widget build failed");
}
const bytes = readFileSync(file);
const gzipped = gzipSync(bytes, { level: 9 }).byteLength;
console.log(
  `widget.js: ${bytes.byteLength} bytes, ${gzipped} bytes gzipped (${((gzipped / 40960) * 100).toFixed(1)}% of the 40 KB budget)`,
);
