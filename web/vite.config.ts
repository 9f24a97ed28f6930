import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/** The agent web app: built into web/dist, which `bun run build` embeds in dist/desk. */
export default defineConfig({
  root,
  base: "/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, target: "es2022", chunkSizeWarningLimit: 600 },
  server: { proxy: { "/v1": { target: process.env.DESK_URL ?? "http://127.0.0.1:8080", ws: true } } },
});
