import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

/** The widget loads on every page of a customer's site: the build fails past 40 KB gzipped and prints its size. */
const MAX_GZIPPED_BYTES = 40 * 1024;
const sizeBudget = (): Plugin => ({
  name: "desk-widget-size",
  generateBundle(_options, bundle) {
    for (const file of Object.values(bundle)) {
      if (file.type !== "chunk") continue;
      const gzipped = gzipSync(file.code, { level: 9 }).byteLength;
      console.log(`widget: ${file.fileName} ${file.code.length} bytes, ${gzipped} bytes gzipped (budget ${MAX_GZIPPED_BYTES})`);
      if (gzipped > MAX_GZIPPED_BYTES) this.error(`widget.js is ${gzipped} bytes gzipped, over the ${MAX_GZIPPED_BYTES} budget`);
    }
  },
});

/**
 * The embeddable chat widget: a script other sites load with one tag (DECISIONS.md), so a library
 * build of its own (one IIFE file, no React, its CSS imported `?inline` into a shadow root), written
 * to dist/widget/widget.js after the main build (vite.config.ts runs it when that build closes).
 * The server answers `/widget.js` with a redirect to `/widget/<version>.js` (src/widget/widget.page.ts).
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  logLevel: "warn",
  publicDir: false,
  plugins: [sizeBudget()],
  build: {
    outDir: "dist/widget",
    emptyOutDir: false,
    sourcemap: false,
    target: "es2020",
    minify: true,
    lib: {
      entry: fileURLToPath(new URL("src/widget/widget.ts", import.meta.url)),
      name: "DeskWidget",
      formats: ["iife"],
      fileName: () => "widget.js",
    },
  },
});
