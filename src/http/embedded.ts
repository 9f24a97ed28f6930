import { webAssetsFrom, type WebAssets } from "./web-assets";

/** Filled by the compiled executable's entry (scripts/build.ts) with the embedded web files. */
let embedded: WebAssets | null = null;

/** @public Called by the entry file scripts/build.ts generates for the executable. */
export function setEmbeddedWebFiles(files: Map<string, string>): void {
  embedded = webAssetsFrom(new Map([...files].map(([path, file]) => [path, Bun.file(file)])));
}

export const embeddedWebAssets = (): WebAssets | null => embedded;
