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

/** Where an S3 store keeps its files and how it reaches them (DESK_FILES_URL, DESK_S3_*, AWS_*). */
export type S3FilesConfig = {
  /** `s3://bucket` or `s3://bucket/prefix`: every key is stored at `prefix/key`. */
  url: string;
  /** The S3-compatible service (path-style addressing); null: AWS S3 in `region`. */
  endpoint: string | null;
  region: string | null;
  /** Null: Bun's client reads its usual variables (S3_* or AWS_*, a session token included). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
};

/** `s3://bucket/some/prefix/` → the bucket and `some/prefix/` (empty: the bucket's root). */
export function parseFilesUrl(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/?#]+)(?:\/([^?#]*))?$/.exec(url);
  if (!match) throw new Error(`DESK_FILES_URL: not an s3://bucket/prefix URL: ${url}`);
  const folders = (match[2] ?? "").split("/").filter(Boolean);
  return { bucket: match[1]!, prefix: folders.length > 0 ? `${folders.join("/")}/` : "" };
}

const isNoSuchKey = (error: unknown): boolean =>
  error instanceof Error && (error as { code?: string }).code === "NoSuchKey";

/** Keys a list asks for per request: S3's own page size. */
const LIST_PAGE = 1000;

/**
 * The store of a desk with DESK_FILES_URL: each key is one object at `prefix + key` in the bucket,
 * on Bun's S3 client. A PUT is atomic (readers see the old object or the new one; a body that fails
 * half-way stores nothing), so there is no partial file to manage.
 *
 * `get` answers the object's bytes as an in-memory Blob (with the stored content type), not the
 * client's S3File: Bun answers `new Response(s3File)` with a redirect to a presigned URL and
 * throws on `new Response(s3File, { headers })`, which every route serving a file does. Files are
 * bounded (attachments 25 MB); `slice` of the answer is a range of it.
 */
export function s3BlobStore(files: S3FilesConfig, options: { listPage?: number } = {}): BlobStore {
  const listPage = options.listPage ?? LIST_PAGE;
  const { bucket, prefix } = parseFilesUrl(files.url);
  const client = new Bun.S3Client({
    bucket,
    ...(files.endpoint ? { endpoint: files.endpoint } : {}),
    region: files.region ?? "us-east-1",
    ...(files.accessKeyId ? { accessKeyId: files.accessKeyId } : {}),
    ...(files.secretAccessKey ? { secretAccessKey: files.secretAccessKey } : {}),
  });
  const pathOf = (key: string) => prefix + checkBlobKey(key);
  async function* pages(listPrefix: string): AsyncGenerator<string> {
    let continuationToken: string | undefined;
    do {
      const page = await client.list({ prefix: prefix + listPrefix, maxKeys: listPage, continuationToken });
      for (const entry of page.contents ?? []) {
        const key = entry.key.slice(prefix.length);
        // Objects put there by anything else under a name no store would take are not blobs.
        if (entry.key.startsWith(prefix + listPrefix) && isBlobKey(key)) yield key;
      }
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (continuationToken);
  }
  return {
    async put(key, body, options) {
      const path = pathOf(key);
      const data = body instanceof ReadableStream ? new Response(body) : body;
      await client.write(path, data, options?.contentType ? { type: options.contentType } : {});
    },
    async get(key) {
      const file = client.file(pathOf(key));
      try {
        const [stat, bytes] = await Promise.all([file.stat(), file.bytes()]);
        return new Blob([bytes], { type: stat.type });
      } catch (error) {
        if (isNoSuchKey(error)) return null;
        throw error;
      }
    },
    has: async (key) => client.exists(pathOf(key)),
    delete: async (key) => client.unlink(pathOf(key)),
    list(listPrefix) {
      checkPrefix(listPrefix);
      return pages(listPrefix);
    },
    describe: (key) => `s3://${bucket}/${pathOf(key)}`,
  };
}

const isBlobKey = (key: string): boolean => {
  try {
    checkBlobKey(key);
    return true;
  } catch {
    return false;
  }
};

/**
 * The desk's store from its configuration (the composition root builds it once; see DEVELOPING.md
 * "Files"): S3-compatible storage when DESK_FILES_URL is set, else the data dir.
 */
export const blobStoreOf = (config: { dataDir: string; files?: S3FilesConfig | null }): BlobStore =>
  config.files ? s3BlobStore(config.files) : localBlobStore(config.dataDir);
