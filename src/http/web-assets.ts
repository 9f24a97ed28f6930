import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** The built web app: files by URL path; unknown paths get index.html (client-side routes). */
export type WebAssets = { serve(path: string): Response | null };

const CACHE_IMMUTABLE = "public, max-age=31536000, immutable";

export function webAssetsFrom(files: Map<string, Blob>): WebAssets {
  const index = files.get("/index.html");
  return {
    serve(path) {
      const file = files.get(path);
      if (file) {
        const headers: Record<string, string> = { "x-content-type-options": "nosniff" };
        headers["cache-control"] = path.startsWith("/assets/") ? CACHE_IMMUTABLE : "no-cache";
        return new Response(file, { headers });
      }
      if (!index || path.startsWith("/v1") || /\.[a-z0-9]+$/i.test(path)) return null;
      return new Response(index, {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
      });
    },
  };
}

/** During development the web app is read from web/dist when it has been built. */
export function webAssetsFromDisk(dir: string): WebAssets | null {
  if (!existsSync(join(dir, "index.html"))) return null;
  const files = new Map<string, Blob>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(`/${relative(dir, full).split("\\").join("/")}`, Bun.file(full));
    }
  };
  walk(dir);
  return webAssetsFrom(files);
}
