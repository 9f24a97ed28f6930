import { chmodSync, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { basename, join } from "node:path";

type SharpFactory = typeof import("sharp").default;

let embeddedLibvips: string | null = null;
/** @public Called by the executable's generated entry (scripts/build.ts) with the path of the libvips it embeds. */
export function setEmbeddedLibvips(path: string): void {
  embeddedLibvips = path;
}

let loaded: SharpFactory | null = null;

/**
 * sharp, loaded on first use so a desk that never sees a picture does not map libvips (tens of MB).
 * Inside the single executable the addon cannot find libvips next to it (the embedded files live in
 * a virtual folder the dynamic loader cannot read), so the embedded copy is written once under the
 * data dir and loaded first; the addon's dependency on it is then met by its already loaded soname.
 * `require` (not `import`): the ESM build resolves the addon with createRequire, which the
 * executable cannot follow, while a plain require lets the bundler embed the addon.
 */
export async function loadSharp(dataDir: string): Promise<SharpFactory> {
  if (loaded) return loaded;
  if (embeddedLibvips) {
    const dir = join(dataDir, "cache");
    const target = join(dir, basename(embeddedLibvips));
    const size = Bun.file(embeddedLibvips).size;
    if (!existsSync(target) || statSync(target).size !== size) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Written beside and renamed: a second process never loads a half-written library.
      const partial = `${target}.${process.pid}.partial`;
      // Bun.file reads the executable's virtual folder, which node:fs copies cannot.
      await Bun.write(partial, Bun.file(embeddedLibvips));
      chmodSync(partial, 0o600);
      renameSync(partial, target);
    }
    const { dlopen, FFIType } = await import("bun:ffi");
    // bun:ffi needs one symbol to bind; the library stays loaded for the process's life.
    dlopen(target, { vips_version: { args: [FFIType.i32], returns: FFIType.i32 } });
  }
  const sharp = require("sharp") as SharpFactory;
  sharp.cache(false);
  sharp.concurrency(1);
  loaded = sharp;
  return sharp;
}
