import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { build, defineConfig, type Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The front-ends built from web/ into web/dist, which the server serves from disk in development
 * and `bun run build` embeds in dist/desk (every file under web/dist, by its path).
 *
 * Each page entry is an HTML file beside index.html; its script imports only what it needs, so
 * Rollup splits what entries share into common chunks and an entry never loads another's code.
 * Adding one (docs/DEVELOPING.md, "Web app"): `name: resolve("name.html")` below, its sources in
 * web/src/<name>/. A script embedded in other sites' pages (the chat widget) is not a page entry:
 * it is its own library build (see DEVELOPING.md) with no React Query, no app shell and its CSS in
 * a shadow root, so neither the host page's styles nor ours leak across.
 */
const entries = {
  // The agent app: index.html answers `/` and every client-side route (src/http/web-assets.ts).
  main: fileURLToPath(new URL("index.html", import.meta.url)),
};

/**
 * The chat widget's library build (vite.widget.config.ts) runs once the app's build has written
 * web/dist (which it empties first), so every caller of `vite build` gets both: `bun run build:web`,
 * `bun run build` and the rebuild `bun start` does from source.
 */
const widgetBuild = (): Plugin => ({
  name: "desk-widget-build",
  apply: "build",
  async closeBundle() {
    await build({ configFile: fileURLToPath(new URL("vite.widget.config.ts", import.meta.url)) });
  },
});

export default defineConfig({
  root,
  base: "/",
  plugins: [react(), widgetBuild()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    chunkSizeWarningLimit: 600,
    rollupOptions: { input: entries },
  },
  server: { proxy: { "/v1": { target: process.env.DESK_URL ?? "http://127.0.0.1:8080", ws: true } } },
});
