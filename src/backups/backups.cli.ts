import { join } from "node:path";
import { migrations } from "../../migrations/index";
import { postgresMigrations } from "../../migrations/postgres/index";
import { isPostgresUrl } from "../config/engine";
import { buildInfo } from "../lib/version";
import type { Config } from "../config/config";
import { systemClock } from "../lib/clock";
import { archiveSize, BackupError, createBackup, restoreBackup, verifyBackup } from "./backups.service";

export const BACKUP_USAGE = "backup <file> | backup --verify <file>";
export const RESTORE_USAGE = "restore <file> [--data-dir <dir>]";

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Runs an operator command; a BackupError is the operator's to fix: its message, exit 1. */
async function operatorRun(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(error.message);
    return 1;
  }
}

/** `desk backup <file>` while Desk serves, or `desk backup --verify <file>`. */
export function runBackupCommand(config: () => Config, args: string[]): Promise<number> {
  const verify = args[0] === "--verify";
  const file = verify ? args[1] : args[0];
  if (!file || args.length !== (verify ? 2 : 1)) {
    console.error(`usage: desk ${BACKUP_USAGE}`);
    return Promise.resolve(2);
  }
  return operatorRun(async () => {
    if (verify) {
      const manifest = await verifyBackup(file);
      console.log(
        `ok: ${manifest.files.length} files, taken ${manifest.created_at} by Desk ${manifest.desk_version}; database integrity ok`,
      );
      return 0;
    }
    const { dataDir, databasePath, databaseUrl } = config();
    const manifest = await createBackup({
      dataDir,
      databasePath,
      databaseUrl,
      file,
      deskVersion: buildInfo().version,
      clock: systemClock,
    });
    console.log(`wrote ${file}: ${manifest.files.length} files, ${megabytes(archiveSize(file))}`);
    return 0;
  });
}

/**
 * `desk restore <file> [--data-dir <dir>]`. The data dir comes from the flag or DESK_DATA_DIR, not
 * from loading the configuration: that would create secrets in it and make it non-empty.
 */
export function runRestoreCommand(args: string[]): Promise<number> {
  const file = args[0];
  const flag = args.indexOf("--data-dir");
  const dataDir = flag >= 0 ? args[flag + 1] : (process.env.DESK_DATA_DIR ?? "./data");
  const expected = flag >= 0 ? 3 : 1;
  if (!file || file.startsWith("--") || !dataDir || args.length !== expected) {
    console.error(`usage: desk ${RESTORE_USAGE}`);
    return Promise.resolve(2);
  }
  return operatorRun(async () => {
    const databaseUrl = process.env.DESK_DATABASE_URL;
    const manifest = await restoreBackup({
      file,
      dataDir,
      migrations,
      databaseUrl: isPostgresUrl(databaseUrl) ? databaseUrl : null,
      postgresMigrationTags: postgresMigrations.flatMap((m) => m.covers),
    });
    console.log(
      `restored ${manifest.files.length} files into ${join(dataDir)} (taken ${manifest.created_at} by Desk ${manifest.desk_version})`,
    );
    return 0;
  });
}
