import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { appliedMigrationTags, unknownMigrationTags, type Migration } from "../db/migrate";
import type { Clock } from "../lib/clock";

/** Bumped when the archive's layout changes; restore refuses formats it does not know. */
export const BACKUP_FORMAT = 1;
const MANIFEST = "manifest.json";
const DATABASE = "desk.db";

export type ManifestFile = { path: string; size: number; sha256: string };
export type Manifest = {
  format: number;
  desk_version: string;
  created_at: string;
  /** The migration tags the copied database holds: restore compares them with its own. */
  migrations: string[];
  files: ManifestFile[];
};

/** A failure the operator can act on: the CLI prints the message and exits 1. */
export class BackupError extends Error {
  override name = "BackupError";
}

/**
 * Data-dir entries that are not copied as files: the live database (copied through SQLite instead,
 * which is consistent while Desk writes) with its WAL and shared memory, the pre-migration
 * snapshots (copies of older states, not the current one) and `backups/`, where archives may be
 * kept: each archive holding the ones before it would double the size every time.
 */
const SKIPPED = new Set([DATABASE, `${DATABASE}-wal`, `${DATABASE}-shm`, "snapshots", "backups"]);

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

function walk(root: string, dir: string, skip: (path: string) => boolean, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip(path)) continue;
    if (entry.isDirectory()) walk(root, path, skip, out);
    else if (entry.isFile()) out.push(relative(root, path).split(sep).join("/"));
  }
}

/**
 * Writes one gzip tar holding a consistent copy of the database, every other file of the data dir
 * (attachments, raw mail, pictures, generated secrets) and a manifest with their checksums.
 * The database is copied first with `VACUUM INTO` on its own connection: SQLite gives it one read
 * snapshot while the serving connection keeps writing. Files are read afterwards, so every file a
 * copied row refers to (written before its row was committed) is present.
 */
export async function createBackup(options: {
  dataDir: string;
  databasePath: string;
  file: string;
  deskVersion: string;
  clock: Clock;
}): Promise<Manifest> {
  const target = resolve(options.file);
  const work = mkdtempSync(join(tmpdir(), "desk-backup-"));
  try {
    const copyPath = join(work, DATABASE);
    const source = new Database(options.databasePath, { readonly: true });
    try {
      source.exec("PRAGMA busy_timeout = 5000");
      source.query("VACUUM INTO ?").run(copyPath);
    } finally {
      source.close();
    }
    const copy = new Database(copyPath, { readonly: true });
    const migrations = appliedMigrationTags(copy);
    copy.close();
    const contents: Record<string, Uint8Array> = { [DATABASE]: readFileSync(copyPath) };
    const dataDir = resolve(options.dataDir);
    const paths: string[] = [];
    walk(
      dataDir,
      dataDir,
      (path) => path === target || (dirname(path) === dataDir && SKIPPED.has(relative(dataDir, path))),
      paths,
    );
    for (const path of paths.sort()) contents[path] = readFileSync(join(dataDir, path));
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      desk_version: options.deskVersion,
      created_at: options.clock.now().toISOString(),
      migrations,
      files: Object.entries(contents).map(([path, bytes]) => ({ path, size: bytes.byteLength, sha256: sha256(bytes) })),
    };
    const archive = new Bun.Archive(
      { [MANIFEST]: JSON.stringify(manifest, null, 2), ...contents },
      { compress: "gzip" },
    );
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, await archive.bytes(), { mode: 0o600 });
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

type Opened = { manifest: Manifest; files: Map<string, Uint8Array> };

/** Reads and checks an archive: every file's size and checksum, nothing missing or unlisted, the database whole. */
export async function verifyBackup(file: string): Promise<Manifest> {
  return (await openVerified(file)).manifest;
}

async function openVerified(file: string): Promise<Opened> {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new BackupError(`cannot read ${file}`);
  }
  const files = new Map<string, Uint8Array>();
  try {
    for (const [path, blob] of await new Bun.Archive(bytes).files()) files.set(path, await blob.bytes());
  } catch (error) {
    throw new BackupError(`${file} is not a readable backup archive (${(error as Error).message})`);
  }
  const manifestBytes = files.get(MANIFEST);
  if (!manifestBytes) throw new BackupError(`${file} has no ${MANIFEST}: not a Desk backup, or damaged`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(manifestBytes)) as Manifest;
  } catch {
    throw new BackupError(`${file}: ${MANIFEST} is not valid JSON`);
  }
  if (manifest.format !== BACKUP_FORMAT)
    throw new BackupError(`${file} has backup format ${manifest.format}; this Desk reads format ${BACKUP_FORMAT}`);
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const entry of manifest.files) {
    listed.add(entry.path);
    const content = files.get(entry.path);
    if (!content) problems.push(`${entry.path}: missing`);
    else if (content.byteLength !== entry.size || sha256(content) !== entry.sha256)
      problems.push(`${entry.path}: checksum mismatch`);
  }
  for (const path of files.keys())
    if (path !== MANIFEST && !listed.has(path)) problems.push(`${path}: not in the manifest`);
  if (!files.has(DATABASE)) problems.push(`${DATABASE}: missing`);
  if (problems.length === 0) {
    const integrity = databaseIntegrity(files.get(DATABASE)!);
    if (integrity !== "ok") problems.push(`${DATABASE}: integrity check failed (${integrity})`);
  }
  if (problems.length > 0) throw new BackupError(`${file} is damaged:\n  ${problems.join("\n  ")}`);
  return { manifest, files };
}

function databaseIntegrity(bytes: Uint8Array): string {
  const work = mkdtempSync(join(tmpdir(), "desk-verify-"));
  try {
    const path = join(work, DATABASE);
    writeFileSync(path, bytes);
    const db = new Database(path, { readonly: true });
    try {
      const rows = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all();
      return rows.map((r) => r.integrity_check).join("; ");
    } finally {
      db.close();
    }
  } catch (error) {
    return (error as Error).message;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Restores a verified archive into an empty (or absent) data dir: files 0600, folders 0700, as Desk
 * itself creates them. Refuses a non-empty dir (restore never merges into or overwrites live data)
 * and an archive whose database holds migrations this binary does not know.
 */
export async function restoreBackup(options: {
  file: string;
  dataDir: string;
  migrations: Migration[];
}): Promise<Manifest> {
  const dataDir = resolve(options.dataDir);
  let existing: string[] = [];
  try {
    existing = readdirSync(dataDir);
  } catch {
    // Absent: created below.
  }
  if (existing.length > 0)
    throw new BackupError(
      `${dataDir} is not empty: restore only into an empty data dir (move the current one aside first)`,
    );
  const { manifest, files } = await openVerified(options.file);
  const unknown = unknownMigrationTags(manifest.migrations, options.migrations);
  if (unknown.length > 0)
    throw new BackupError(
      `${options.file} was taken by a newer Desk (${manifest.desk_version}; migrations ${unknown.join(", ")} are unknown here): restore it with that release or a newer one`,
    );
  // A manifest path climbing out of the data dir ("../") would write elsewhere on the machine.
  for (const entry of manifest.files)
    if (!resolve(dataDir, entry.path).startsWith(dataDir + sep))
      throw new BackupError(`${options.file}: refusing path ${entry.path} outside the data dir`);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  for (const entry of manifest.files) {
    const path = resolve(dataDir, entry.path);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, files.get(entry.path)!, { mode: 0o600 });
  }
  return manifest;
}

/** Sizes for the CLI's summary line. */
export const archiveSize = (file: string): number => statSync(file).size;
