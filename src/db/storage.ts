import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  rmSync,
  statfsSync,
  writeSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { DeskError } from "../lib/errors";
import type { Db } from "./database";
import { deskState } from "./desk-state";

/**
 * Below this much free space on the data dir's file system Desk reports itself not ready: a write
 * that needs new pages (the database growing at a checkpoint, an attachment) is about to fail, even
 * when small commits still fit in the WAL's already allocated frames and so succeed.
 */
export const MIN_FREE_BYTES = 8 * 1024 * 1024;

const FULL_SQLITE_CODES = new Set(["SQLITE_FULL", "SQLITE_IOERR_WRITE", "SQLITE_IOERR_FSYNC"]);
const FULL_ERRNO_CODES = new Set(["ENOSPC", "EDQUOT"]);

/**
 * Whether an error means the disk (or the quota) is full: SQLite's SQLITE_FULL, or a file write's
 * ENOSPC/EDQUOT, however deeply it was wrapped. An I/O error on write counts only with a matching
 * message, since a failing disk is not a full one.
 */
export function isStorageFull(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    const message = e instanceof Error ? e.message : "";
    if (code === "SQLITE_FULL" || (typeof code === "string" && FULL_ERRNO_CODES.has(code))) return true;
    if (typeof code === "string" && FULL_SQLITE_CODES.has(code) && /full|no space|ENOSPC/i.test(message)) return true;
    if (/\b(ENOSPC|EDQUOT)\b|no space left on device|database or disk is full/i.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** SPEC.md's error body for a write refused because the disk is full: the client may retry later. */
export const storageFull = () =>
  new DeskError(507, "storage_full", "The server's storage is full; the change was not stored. Try again later.");

type StorageState = { failingSince: number | null; lastError: string | null };
const storageOf = deskState<StorageState>("db.storage", () => ({ failingSince: null, lastError: null }));

/** Records a write refused for lack of space: readiness stays red until a write succeeds again. */
export function noteStorageFailure(db: Db, error: unknown): void {
  if (!isStorageFull(error)) return;
  const state = storageOf(db);
  state.failingSince ??= performance.now();
  state.lastError = error instanceof Error ? error.message : String(error);
}

/** A committed write: the disk takes writes again. */
export function noteStorageWrite(db: Db): void {
  const state = storageOf(db);
  if (state.failingSince !== null) {
    state.failingSince = null;
    state.lastError = null;
  }
}

/** Bytes an unprivileged writer may still use on the file system holding `path`, or null when unknown. */
export function freeBytes(path: string): number | null {
  try {
    const stats = statfsSync(path);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/** Why writes are refused (or about to be) for lack of space, or null when they are not. */
export function storageProblem(db: Db, dataDir: string): string | null {
  const state = storageOf(db);
  if (state.failingSince !== null) return `writes fail for lack of space: ${state.lastError}`;
  const free = freeBytes(dataDir);
  if (free !== null && free < MIN_FREE_BYTES)
    return `only ${Math.floor(free / 1024)} KiB free on the data dir's file system (below ${MIN_FREE_BYTES / 1024 / 1024} MiB)`;
  return null;
}

/** The data dir cannot be written: the operator's to fix, said in one line at start (main.ts). */
export class DataDirUnwritableError extends Error {
  override name = "DataDirUnwritableError";
}

/**
 * Refuses a data dir Desk could not write to (a read-only mount, a volume owned by another user),
 * before anything else touches it: creates it if absent, then writes, syncs and removes a probe
 * file, and checks an existing database file is writable. Root passes permission bits, so only a
 * real write tells.
 */
export function assertWritableDataDir(dataDir: string, databaseFile = "desk.db"): void {
  const dir = resolve(dataDir);
  const refuse = (error: unknown): never => {
    const code = (error as { code?: unknown }).code;
    const reason = typeof code === "string" ? code : error instanceof Error ? error.message : String(error);
    throw new DataDirUnwritableError(
      `the data dir ${dir} is not writable (${reason}); Desk stores its database, attachments and mail there: mount it read-write or set DESK_DATA_DIR`,
    );
  };
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const probe = join(dir, `.desk-write-check-${process.pid}`);
    const fd = openSync(probe, "w", 0o600);
    try {
      writeSync(fd, "ok");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
      rmSync(probe, { force: true });
    }
    const database = join(dir, databaseFile);
    if (existsSync(database)) accessSync(database, constants.W_OK);
  } catch (error) {
    refuse(error);
  }
}
