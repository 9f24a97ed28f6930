import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deskState } from "../db/desk-state";
import type { Deps } from "../deps";
import { embeddedWebAssets } from "../http/embedded";
import type { Page } from "../http/pages";
import { DeskError } from "../lib/errors";
import { sha256Hex } from "../lib/crypto";

/** Where `bun run build:web` writes the widget (web/vite.widget.config.ts); the executable embeds it. */
const BUILT_PATH = "/widget/widget.js";

type Script = { bytes: Uint8Array<ArrayBuffer>; version: string };

const scriptOf = deskState("widget.script", () => ({ loaded: null as Script | null }));

/** The built script, read once: the executable's embedded copy, else web/dist on disk (source runs). */
async function loadScript(deps: Pick<Deps, "db">): Promise<Script | null> {
  const state = scriptOf(deps.db);
  if (state.loaded) return state.loaded;
  let bytes: Uint8Array<ArrayBuffer> | null = null;
  const embedded = embeddedWebAssets()?.serve(BUILT_PATH);
  if (embedded && embedded.status === 200) bytes = new Uint8Array(await embedded.arrayBuffer());
  else {
    const file = join(import.meta.dir, "..", "..", "web", "dist", "widget", "widget.js");
    if (existsSync(file)) bytes = new Uint8Array(readFileSync(file));
  }
  if (!bytes) return null;
  state.loaded = { bytes, version: sha256Hex(bytes).slice(0, 16) };
  return state.loaded;
}

const notBuilt = () => new DeskError(404, "not_found", "The chat widget has not been built (bun run build:web).");

/**
 * `/widget.js` (the one-tag embed of DECISIONS.md) redirects to the current build's versioned URL
 * `/widget/<version>.js`, which is cached for a year; the redirect itself is cached five minutes, so
 * a new release reaches every site within minutes. Both are open to every origin.
 */
export function widgetScriptPage(deps: Pick<Deps, "db">): Page[] {
  const headers = {
    "access-control-allow-origin": "*",
    "cross-origin-resource-policy": "cross-origin",
    "x-content-type-options": "nosniff",
  };
  return [
    {
      path: "/widget.js",
      securityHeaders: headers,
      async handle() {
        const script = await loadScript(deps);
        if (!script) throw notBuilt();
        return new Response(null, {
          status: 302,
          headers: { location: `/widget/${script.version}.js`, "cache-control": "public, max-age=300" },
        });
      },
    },
    {
      path: "/widget/",
      securityHeaders: headers,
      async handle(_request, path) {
        const script = await loadScript(deps);
        if (!script) throw notBuilt();
        if (path !== `/widget/${script.version}.js`) throw new DeskError(404, "not_found", "No such widget version.");
        return new Response(script.bytes, {
          headers: {
            "content-type": "text/javascript; charset=utf-8",
            "cache-control": "public, max-age=31536000, immutable",
            etag: `"${script.version}"`,
          },
        });
      },
    },
  ];
}
