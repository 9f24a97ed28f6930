import { randomUUID } from "node:crypto";
import { rmSync, type Dir } from "node:fs";
import { chmod, copyFile, mkdir, opendir, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/**
 * Every file Desk keeps beside its database (attachments, pictures, raw mail, the outbox), by key:
 * a relative path such as `attachments/<id>` or `mail/<workspace>/<month>/<id>.eml`. Features read
 * and write them only through the desk's one store (`deps.blobs`), so a later step can keep them in
 * S3-compatible storage (DESK_FILES_URL) with no change to any caller. Keys are checked on every
 * call: a key is never a way out of the store, whoever built it.
 */
export type BlobStore = {
  /** Stores the bytes under `key`, replacing what was there in one step: a reader sees the old file or the new one. */
  put(key: string, body: BlobBody, options?: { contentType?: string }): Promise<void>;
  /** The stored file (a Bun.file here, an S3 file there: either streams with range support), or null. */
  get(key: string): Promise<Blob | null>;
  has(key: string): Promise<boolean>;
  /** Removes the file; a missing one is no error. */
  delete(key: string): Promise<void>;
  /** The keys starting with `prefix`, a few at a time (a workspace's mail may be many thousands). */
  list(prefix: string): AsyncIterable<string>;
  /** Where a key lives, for log lines only (an absolute path here, an s3:// URL there); never opened. */
  describe(key: string): string;
};

export type BlobBody = Uint8Array | Blob | ReadableStream<Uint8Array>;

/** A key no store may take: absolute, climbing out, reaching the data dir's own files. */
export class BlobKeyError extends Error {
  override name = "BlobKeyError";
}

/**
 * Folders of the data dir that are not blobs: the store's own partial writes, the pre-migration
 * snapshots, backups and native-library cache. A single-segment key (`desk.db`, `secret.key`) is
 * refused too: every blob lives in a folder.
 */
const RESERVED = new Set(["tmp", "snapshots", "backups", "cache"]);
/** Portable on every file system and as an S3 key; a leading dot would allow `.` and `..`. */
const SEGMENT = /^[A-Za-z0-9_@+=-][A-Za-z0-9._@+=-]{0,254}$/;
const MAX_KEY = 1024;

/** Answers the key when it is a safe relative path of at least two segments, else throws BlobKeyError. */
export function checkBlobKey(key: string): string {
  const segments = typeof key === "string" && key.length <= MAX_KEY ? key.split("/") : [];
  if (segments.length < 2 || !segments.every((s) => SEGMENT.test(s)) || RESERVED.has(segments[0]!))
    throw new BlobKeyError(`not a blob key: ${JSON.stringify(String(key).slice(0, 80))}`);
  return key;
}

/** A list prefix: a key's beginning, ending in `/` to name a folder; checked like a key. */
function checkPrefix(prefix: string): string {
  const folder = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
  checkBlobKey(folder.includes("/") ? folder : `${folder}/x`);
  return prefix;
}

const errnoOf = (error: unknown): string | undefined =>
  error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? undefined) : undefined;

/** Files private to Desk's user, as the data dir itself (doctor flags anything looser). */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
/** Each entry of a bounded folder-made cache is a short path; a desk has few folders per month. */
const MADE_FOLDERS_CAP = 10_000;

/** Folders a store made: a month's mail folder is made once, not per message (inbound is hot). */
class MadeFolders {
  private readonly made = new Set<string>();

  async make(folder: string): Promise<void> {
    if (this.made.has(folder)) return;
    await mkdir(folder, { recursive: true, mode: DIR_MODE });
    if (this.made.size >= MADE_FOLDERS_CAP) this.made.clear();
    this.made.add(folder);
  }

  /** Forgets a folder removed since (a purge, an operator's cleanup): the next write makes it again. */
  forget(folder: string): void {
    this.made.delete(folder);
  }
}

/** Renames into place; a folder removed since it was made is made again, once. */
async function moveInto(folders: MadeFolders, from: string, to: string): Promise<void> {
  await folders.make(dirname(to));
  try {
    await rename(from, to);
  } catch (error) {
    if (errnoOf(error) !== "ENOENT") throw error;
    folders.forget(dirname(to));
    await folders.make(dirname(to));
    await rename(from, to);
  }
}

/**
 * Bytes are written on the fs thread pool (node:fs/promises): Bun.write writes on the event loop's
 * own thread, where it measured ~18% of inbound ingest CPU under load. Blobs and streams (uploads)
 * go through Bun.write, which streams them without holding the file twice in memory.
 */
async function writeBody(path: string, body: BlobBody): Promise<void> {
  if (body instanceof Uint8Array) return writeFile(path, body, { mode: FILE_MODE });
  if (body instanceof Blob) await Bun.write(path, body);
  else await Bun.write(path, new Response(body));
  await chmod(path, FILE_MODE);
}

/** The partial file first (made again once if its folder went away, when the body can be read twice). */
async function writePartial(folders: MadeFolders, partial: string, body: BlobBody): Promise<void> {
  try {
    await writeBody(partial, body);
  } catch (error) {
    if (errnoOf(error) !== "ENOENT" || body instanceof ReadableStream) throw error;
    folders.forget(dirname(partial));
    await folders.make(dirname(partial));
    await writeBody(partial, body);
  }
}

/** An area linked to another disk (attachments on a bigger volume) cannot take a rename from tmp/. */
async function moveAcross(folders: MadeFolders, partial: string, path: string): Promise<void> {
  const beside = join(dirname(path), `.${randomUUID()}.partial`);
  try {
    await copyFile(partial, beside);
    await moveInto(folders, beside, path);
  } catch (error) {
    await rm(beside, { force: true });
    throw error;
  }
}

/** Reads folders as streams (opendir): a month of a workspace's mail is never listed in one array. */
async function* walk(root: string, folder: string, prefix: string): AsyncGenerator<string> {
  let dir: Dir;
  try {
    dir = await opendir(join(root, folder));
  } catch (error) {
    if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return;
    throw error;
  }
  for await (const entry of dir) {
    const key = `${folder}/${entry.name}`;
    if (entry.isDirectory() && (key.startsWith(prefix) || prefix.startsWith(`${key}/`))) yield* walk(root, key, prefix);
    else if (entry.isFile() && key.startsWith(prefix) && SEGMENT.test(entry.name)) yield key;
  }
}

/** Folders below an area (`mail/<workspace>/<month>`) go when emptied, as a purge's rm -r did. */
async function removeEmptiedFolders(root: string, folders: MadeFolders, key: string): Promise<void> {
  const segments = key.split("/");
  for (let depth = segments.length - 1; depth >= 2; depth--) {
    const folder = join(root, ...segments.slice(0, depth));
    folders.forget(folder);
    const removed = await rmdir(folder).then(
      () => true,
      () => false,
    );
    if (!removed) return;
  }
}

/**
 * The store of a desk without DESK_FILES_URL: files under `root` (the data dir) at exactly their key,
 * the layout backups, restore and older versions know. A write goes to `<root>/tmp/` first and is
 * renamed into place, so a crash or a full disk never leaves a torn file under a key.
 */
export function localBlobStore(root: string): BlobStore {
  const tmpDir = join(root, "tmp");
  const folders = new MadeFolders();
  const pathOf = (key: string) => join(root, checkBlobKey(key));
  return {
    async put(key, body) {
      const path = pathOf(key);
      await folders.make(tmpDir);
      const partial = join(tmpDir, `${randomUUID()}.partial`);
      try {
        await writePartial(folders, partial, body);
        await moveInto(folders, partial, path);
      } catch (error) {
        if (errnoOf(error) === "EXDEV")
          await moveAcross(folders, partial, path).finally(() => rm(partial, { force: true }));
        else {
          await rm(partial, { force: true });
          throw error;
        }
      }
    },
    async get(key) {
      const file = Bun.file(pathOf(key));
      return (await file.exists()) ? file : null;
    },
    has: async (key) => Bun.file(pathOf(key)).exists(),
    async delete(key) {
      // Unlinked within the call, as Desk did before the store: a caller that cannot wait yet (the
      // widget's synchronous sweep) finds the file gone. The S3 twin's callers must await it.
      rmSync(pathOf(key), { force: true });
      await removeEmptiedFolders(root, folders, key);
    },
    list(prefix) {
      checkPrefix(prefix);
      return walk(root, prefix.split("/")[0]!, prefix);
    },
    describe: (key) => pathOf(key),
  };
}

/** The desk's store from its configuration (the composition root builds it once; see DEVELOPING.md "Files"). */
export const blobStoreOf = (config: { dataDir: string }): BlobStore => localBlobStore(config.dataDir);
