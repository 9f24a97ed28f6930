import { createHash } from "node:crypto";
import { once } from "node:events";
import {
  chmodSync,
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { extract as tarExtract, pack as tarPack, type Pack } from "tar-stream";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { unknownMigrationTags, type Migration } from "../db/sqlite/migrate";
import type { Clock } from "../lib/clock";
import {
  backupStatements,
  backupStatementsOfEntry,
  postgresRestoreRefusal,
  restorePostgresDump,
} from "./backups.statements";

/** Bumped when the archive's layout changes; restore refuses formats it does not know. */
export const BACKUP_FORMAT = 1;
const MANIFEST = "manifest.json";
const DATABASE = "desk.db";
/** The database's copy in an archive taken on PostgreSQL (pg_dump's custom format). */
const POSTGRES_DUMP = backupStatements("postgres").entry;

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
// tmp/ holds the file store's writes in flight (src/lib/blob-store.ts): never a finished file.
const SKIPPED = new Set([DATABASE, `${DATABASE}-wal`, `${DATABASE}-shm`, "snapshots", "backups", "tmp"]);

/** The archive entry holding the database copy (`desk.db`, or `desk.pgdump` taken on PostgreSQL), if any. */
const databaseEntryOf = (paths: Iterable<string>): string | undefined =>
  [...paths].find((path) => backupStatementsOfEntry(path) !== null);

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
 * (attachments, raw mail, pictures, generated secrets) and, last, a manifest with their checksums.
 * The database is copied first with `VACUUM INTO` on its own connection: SQLite gives it one read
 * snapshot while the serving connection keeps writing. Files are read afterwards, so every file a
 * copied row refers to (written before its row was committed) is present. Everything streams
 * through the archive: memory stays flat whatever the size of the data dir. The archive is
 * written beside the target and renamed into place, so a failed backup never leaves a torn file.
 */
export async function createBackup(options: {
  dataDir: string;
  databasePath: string;
  /** DESK_DATABASE_URL: the database is this PostgreSQL server's (dumped with pg_dump), not the file. */
  databaseUrl?: string | null;
  file: string;
  deskVersion: string;
  clock: Clock;
}): Promise<Manifest> {
  const target = resolve(options.file);
  const partial = `${target}.partial`;
  const work = mkdtempSync(join(tmpdir(), "desk-backup-"));
  try {
    const engine = backupStatements(options.databaseUrl ? "postgres" : "sqlite");
    const copyPath = join(work, engine.entry);
    await engine.snapshot(options.databaseUrl ?? options.databasePath, copyPath);
    const migrations = await engine.migrationTags(copyPath);
    const dataDir = resolve(options.dataDir);
    const paths: string[] = [];
    walk(
      dataDir,
      dataDir,
      (path) =>
        path === target || path === partial || (dirname(path) === dataDir && SKIPPED.has(relative(dataDir, path))),
      paths,
    );
    mkdirSync(dirname(target), { recursive: true });
    const pack = tarPack();
    const written = pipeline(pack, createGzip({ level: 6 }), createWriteStream(partial, { mode: 0o600 }));
    const files: ManifestFile[] = [await packFile(pack, engine.entry, copyPath)];
    for (const path of paths.sort()) files.push(await packFile(pack, path, join(dataDir, path)));
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      desk_version: options.deskVersion,
      created_at: options.clock.now().toISOString(),
      migrations,
      files,
    };
    pack.entry({ name: MANIFEST, mode: 0o600 }, JSON.stringify(manifest, null, 2));
    pack.finalize();
    await written;
    renameSync(partial, target);
    return manifest;
  } finally {
    rmSync(partial, { force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

/** Streams one file into the archive, hashing it on the way; its size is read first for the tar header. */
async function packFile(pack: Pack, name: string, path: string): Promise<ManifestFile> {
  const size = statSync(path).size;
  const hash = createHash("sha256");
  const entry = pack.entry({ name, size, mode: 0o600 });
  const finished = new Promise<void>((done, fail) => {
    entry.once("finish", done);
    entry.once("error", fail);
  });
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    if (!entry.write(chunk)) await once(entry, "drain");
  }
  entry.end();
  await finished;
  return { path: name, size, sha256: hash.digest("hex") };
}

type Seen = { size: number; sha256: string };

/**
 * Reads an archive entry by entry (any order), giving each file's content to `sink` as a stream
 * while hashing it, and checks the whole against the manifest: every file's size and checksum,
 * nothing missing or unlisted. `sink` answers where the content went (a path) or null to drop it.
 */
async function readArchive(
  file: string,
  sink: (path: string, content: Readable) => Promise<void>,
  onManifest: (manifest: Manifest) => void = () => {},
): Promise<Manifest> {
  try {
    statSync(file);
  } catch {
    throw new BackupError(`cannot read ${file}`);
  }
  const seen = new Map<string, Seen>();
  let manifest: Manifest | null = null;
  const extract = tarExtract();
  const read = pipeline(createReadStream(file), createGunzip(), extract);
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (entry.header.type !== "file") throw new BackupError(`${file}: refusing ${entry.header.type} entry ${name}`);
      if (name === MANIFEST) {
        manifest = parseManifest(file, Buffer.concat(await Array.fromAsync(entry)));
        onManifest(manifest);
        continue;
      }
      const hash = createHash("sha256");
      let size = 0;
      const counted = new PassThrough();
      entry.on("data", (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.byteLength;
      });
      await sink(name, entry.pipe(counted));
      seen.set(name, { size, sha256: hash.digest("hex") });
    }
    await read;
  } catch (error) {
    read.catch(() => {});
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a readable backup archive (${(error as Error).message})`);
  }
  if (!manifest) throw new BackupError(`${file} has no ${MANIFEST}: not a Desk backup, or damaged`);
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const expected of manifest.files) {
    listed.add(expected.path);
    const actual = seen.get(expected.path);
    if (!actual) problems.push(`${expected.path}: missing`);
    else if (actual.size !== expected.size || actual.sha256 !== expected.sha256)
      problems.push(`${expected.path}: checksum mismatch`);
  }
  for (const path of seen.keys()) if (!listed.has(path)) problems.push(`${path}: not in the manifest`);
  if (!databaseEntryOf(seen.keys())) problems.push(`${DATABASE}: missing`);
  if (problems.length > 0) throw new BackupError(`${file} is damaged:\n  ${problems.join("\n  ")}`);
  return manifest;
}

function parseManifest(file: string, bytes: Buffer): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(bytes.toString("utf8")) as Manifest;
  } catch {
    throw new BackupError(`${file}: ${MANIFEST} is not valid JSON`);
  }
  if (manifest.format !== BACKUP_FORMAT)
    throw new BackupError(`${file} has backup format ${manifest.format}; this Desk reads format ${BACKUP_FORMAT}`);
  return manifest;
}

const drain = async (content: Readable): Promise<void> => {
  for await (const _ of content);
};

/** Reads and checks an archive: every file's size and checksum, nothing missing or unlisted, the database whole. */
export async function verifyBackup(file: string): Promise<Manifest> {
  const work = mkdtempSync(join(tmpdir(), "desk-verify-"));
  try {
    const manifest = await readArchive(file, (path, content) =>
      backupStatementsOfEntry(path)
        ? pipeline(content, createWriteStream(join(work, path), { mode: 0o600 }))
        : drain(content),
    );
    const entry = databaseEntryOf(manifest.files.map((f) => f.path)) ?? DATABASE;
    const integrity = await backupStatementsOfEntry(entry)!.integrity(join(work, entry));
    if (integrity !== "ok")
      throw new BackupError(`${file} is damaged:\n  ${entry}: integrity check failed (${integrity})`);
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Restores a verified archive into an empty (or absent) data dir: files 0600, folders 0700, as Desk
 * itself creates them. Refuses a non-empty dir (restore never merges into or overwrites live data)
 * and an archive whose database holds migrations this binary does not know. Everything is written to
 * a staging dir first and moved into place only once the manifest, the checksums and the database's
 * integrity have passed: a restore that fails or is killed halfway never leaves a data dir Desk
 * would start on.
 *
 * An archive taken on PostgreSQL (its copy is `desk.pgdump`) is restored with `databaseUrl`
 * (DESK_DATABASE_URL): the dump is loaded into that database, which must be empty, in one
 * transaction, before the files are moved into place; its migrations are compared with
 * `postgresMigrationTags`. Each engine restores only its own archives (moving a desk from SQLite
 * to PostgreSQL is another command's work).
 */
export async function restoreBackup(options: {
  file: string;
  dataDir: string;
  migrations: Migration[];
  databaseUrl?: string | null;
  /** The tags the PostgreSQL lineage knows (every step's `covers`), for an archive taken on PostgreSQL. */
  postgresMigrationTags?: readonly string[];
}): Promise<Manifest> {
  const dataDir = resolve(options.dataDir);
  const onServer = Boolean(options.databaseUrl);
  let existing: string[] | null = null;
  try {
    existing = readdirSync(dataDir);
  } catch {
    // Absent: created when the restore is moved into place.
  }
  if (existing && existing.length > 0)
    throw new BackupError(
      `${dataDir} is not empty: restore only into an empty data dir (move the current one aside first)`,
    );
  if (options.databaseUrl) {
    let refusal: string | null;
    try {
      refusal = await postgresRestoreRefusal(options.databaseUrl);
    } catch (error) {
      throw new BackupError(`cannot reach the database of DESK_DATABASE_URL: ${(error as Error).message}`);
    }
    if (refusal) throw new BackupError(refusal);
  }
  const refuseNewer = (manifest: Manifest) => {
    const takenOnServer = databaseEntryOf(manifest.files.map((f) => f.path)) === POSTGRES_DUMP;
    if (takenOnServer && !onServer)
      throw new BackupError(
        `${options.file} was taken on PostgreSQL: set DESK_DATABASE_URL to the empty database to restore it into`,
      );
    if (!takenOnServer && onServer)
      throw new BackupError(
        `${options.file} holds a SQLite database: unset DESK_DATABASE_URL to restore it as a SQLite data dir`,
      );
    const known = takenOnServer
      ? (options.postgresMigrationTags ?? []).map((tag) => ({ tag, sql: "" }))
      : options.migrations;
    const unknown = unknownMigrationTags(manifest.migrations, known);
    if (unknown.length > 0)
      throw new BackupError(
        `${options.file} was taken by a newer Desk (${manifest.desk_version}; migrations ${unknown.join(", ")} are unknown here): restore it with that release or a newer one`,
      );
  };
  const staging = stagingDirFor(dataDir);
  try {
    const manifest = await readArchive(
      options.file,
      async (path, content) => {
        // A path climbing out of the staging dir ("../") would write elsewhere on the machine.
        const target = resolve(staging, path);
        if (!target.startsWith(staging + sep))
          throw new BackupError(`${options.file}: refusing path ${path} outside the data dir`);
        mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
        await pipeline(content, createWriteStream(target, { mode: 0o600 }));
      },
      refuseNewer,
    );
    refuseNewer(manifest);
    const entry = databaseEntryOf(manifest.files.map((f) => f.path)) ?? DATABASE;
    const integrity = await backupStatementsOfEntry(entry)!.integrity(join(staging, entry));
    if (integrity !== "ok")
      throw new BackupError(`${options.file} is damaged:\n  ${entry}: integrity check failed (${integrity})`);
    if (entry === POSTGRES_DUMP && options.databaseUrl) {
      try {
        await restorePostgresDump(join(staging, entry), options.databaseUrl);
      } catch (error) {
        throw new BackupError(`${options.file}: the database could not be restored (${(error as Error).message})`);
      }
      rmSync(join(staging, entry));
    }
    moveIntoPlace(staging, dataDir);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * A fresh staging dir beside the data dir, so the final move is a rename on the same filesystem. When
 * the parent is not writable (a data dir prepared by root for the desk user), a hidden dir inside the
 * data dir serves instead, and its entries are renamed up one level.
 */
function stagingDirFor(dataDir: string): string {
  let staging: string;
  try {
    mkdirSync(dirname(dataDir), { recursive: true });
    staging = mkdtempSync(join(dirname(dataDir), `.${basename(dataDir)}.restore-`));
  } catch {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    staging = mkdtempSync(join(dataDir, ".restore-"));
  }
  chmodSync(staging, 0o700);
  return staging;
}

function moveIntoPlace(staging: string, dataDir: string): void {
  let present = true;
  try {
    statSync(dataDir);
  } catch {
    present = false;
  }
  if (!present) {
    renameSync(staging, dataDir);
    return;
  }
  chmodSync(dataDir, 0o700);
  for (const entry of readdirSync(staging)) renameSync(join(staging, entry), join(dataDir, entry));
}

/** Sizes for the CLI's summary line. */
export const archiveSize = (file: string): number => statSync(file).size;
