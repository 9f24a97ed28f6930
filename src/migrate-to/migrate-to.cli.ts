import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { isPostgresUrl } from "../config/engine";
import { localBlobStore, s3BlobStore } from "../lib/blob-store";
import { systemClock } from "../lib/clock";
import { copyFiles, s3FilesOf } from "./migrate-to.files";
import { SourceRunningError } from "./migrate-to.sql";
import {
  MigrateToError,
  type MigrateToReport,
  migratePostgresToSqlite,
  migrateSqliteToPostgres,
} from "./migrate-to.service";
import { MIGRATE_TO_USAGE } from "./migrate-to.usage";

/** The URL without its password, for what the command prints. */
const shown = (url: string): string => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "****";
  return parsed.toString();
};

/** What the operator does next, printed after a verified copy. */
export function cutOverSteps(dataDir: string, url: string, env: Record<string, string | undefined>): string {
  const secret = env.DESK_SECRET
    ? "the DESK_SECRET this desk runs with"
    : `the contents of ${join(dataDir, "secret.key")}`;
  const inbound = env.DESK_INBOUND_SECRET
    ? "the DESK_INBOUND_SECRET this desk runs with"
    : `the contents of ${join(dataDir, "inbound-secret.key")}`;
  return [
    "Cut-over:",
    "  1. Keep this desk stopped (a write to the SQLite file from now on would not reach PostgreSQL).",
    `  2. Start Desk with DESK_DATABASE_URL=${shown(url)}, DESK_SECRET=${secret} and DESK_INBOUND_SECRET=${inbound}`,
    "     (sessions, API keys and sealed mailbox passwords only open with the same secrets; set them on every node).",
    env.DESK_FILES_URL
      ? `  3. Start every node with DESK_FILES_URL=${env.DESK_FILES_URL} (and its DESK_S3_*/AWS_* settings): the files were copied there.`
      : `  3. Keep DESK_DATA_DIR=${dataDir}: attachments, raw mail and pictures stay in the data dir (set DESK_FILES_URL when running migrate-to to copy them into a bucket every node shares).`,
    "  4. Check: sign in, open a ticket, create one (its number follows the last), then point DNS/the proxy at it.",
    `  5. ${join(dataDir, "desk.db")} was not modified: to go back before anything new is written, start Desk without DESK_DATABASE_URL.`,
  ].join("\n");
}

/** What the operator does next after the way back. */
export function backSteps(dataDir: string, secretsWritten: boolean, filesCopied: boolean): string {
  return [
    "Cut-over:",
    "  1. Keep every desk node stopped (a write to PostgreSQL from now on would not reach the SQLite file).",
    filesCopied
      ? `  2. The files of DESK_FILES_URL were copied into ${dataDir}: start without DESK_FILES_URL.`
      : `  2. Copy the nodes' data dir files (attachments/, mail/, images/, outbox/) into ${dataDir} (or run migrate-to with DESK_FILES_URL set to copy the bucket's).`,
    secretsWritten
      ? `  3. ${dataDir} holds the secrets this command ran with (secret.key, inbound-secret.key): sessions, API keys and sealed passwords keep working.`
      : "  3. Start Desk with the DESK_SECRET and DESK_INBOUND_SECRET the nodes ran with (sessions, API keys and sealed passwords only open with them).",
    `  4. Start Desk with DESK_DATA_DIR=${dataDir} and DESK_DATABASE_URL unset; check, then point DNS/the proxy at it.`,
    "  5. The PostgreSQL database was not modified: to go forward again, start the nodes on it.",
  ].join("\n");
}

const summary = (report: MigrateToReport, rebuiltBy: string): string =>
  [
    `verified: ${report.copied.length} tables copied (${report.copied.reduce((n, t) => n + t.rows, 0)} rows), row counts and checksums equal`,
    `verified: ${report.workspaces} workspaces with events, ${report.events} events, every workspace's event seqs contiguous`,
    `rebuilt by ${rebuiltBy}: ${report.rebuilt.map((t) => `${t.table} (${t.rows})`).join(", ")}`,
    ...(report.notCopied.length > 0 ? [`not copied (the other engine's own): ${report.notCopied.join(", ")}`] : []),
  ].join("\n");

/** The way back: `sqlite:///dir --from postgres://…`, into a new or empty dir. */
async function runBack(dataDir: string, from: string, env: Record<string, string | undefined>): Promise<number> {
  const existed = existsSync(dataDir);
  if (existed && readdirSync(dataDir).length > 0) {
    console.error(`desk migrate-to: ${dataDir} is not empty: the way back writes a new data dir only`);
    return 1;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    const report = await migratePostgresToSqlite({
      sourceUrl: from,
      databasePath: join(dataDir, "desk.db"),
      log: (line) => console.log(line),
    });
    const secretsWritten = Boolean(env.DESK_SECRET && env.DESK_INBOUND_SECRET);
    if (secretsWritten) {
      writeFileSync(join(dataDir, "secret.key"), `${env.DESK_SECRET}\n`, { mode: 0o600 });
      writeFileSync(join(dataDir, "inbound-secret.key"), `${env.DESK_INBOUND_SECRET}\n`, { mode: 0o600 });
    }
    console.log(summary(report, "the SQLite file's triggers"));
    const files = s3FilesOf(env);
    if (files) {
      const copied = await copyFiles(s3BlobStore(files), localBlobStore(dataDir), (line) => console.log(line));
      console.log(`copied ${copied.files} files (${copied.bytes} bytes) from ${files.url} into ${dataDir}`);
    }
    console.log(backSteps(dataDir, secretsWritten, files !== null));
    return 0;
  } catch (error) {
    // Nothing half-made is left behind: the dir as it was (absent, or empty).
    if (existed) for (const name of readdirSync(dataDir)) rmSync(join(dataDir, name), { recursive: true, force: true });
    else rmSync(dataDir, { recursive: true, force: true });
    if (!(error instanceof MigrateToError)) throw error;
    console.error(`desk migrate-to: ${error.message}`);
    return 1;
  }
}

/**
 * `desk migrate-to <postgres://…>`: the stopped desk of DESK_DATA_DIR (default ./data) copied into
 * an empty PostgreSQL database and verified. `desk migrate-to sqlite:///dir --from <postgres://…>`:
 * the way back, into a new data dir. Runs with DESK_DATABASE_URL unset (the process runs on SQLite).
 */
export async function runMigrateToCommand(
  args: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const target = args[0];
  const fromAt = args.indexOf("--from");
  const from = fromAt >= 0 ? args[fromAt + 1] : undefined;
  const back = target?.startsWith("sqlite://") ?? false;
  const wellFormed = back
    ? args.length === 3 && fromAt === 1 && isPostgresUrl(from) && target !== "sqlite://"
    : args.length === 1 && isPostgresUrl(target);
  if (!target || !wellFormed) {
    console.error(`usage: desk ${MIGRATE_TO_USAGE}`);
    return 2;
  }
  if (env.DESK_DATABASE_URL) {
    console.error(
      "unset DESK_DATABASE_URL: migrate-to runs on SQLite (the source of the way there, the target of the way back) and names the PostgreSQL database in its arguments",
    );
    return 2;
  }
  if (back && from) return runBack(resolve(decodeURIComponent(target.slice("sqlite://".length))), from, env);
  const dataDir = resolve(env.DESK_DATA_DIR ?? "./data");
  try {
    const report = await migrateSqliteToPostgres({
      databasePath: join(dataDir, "desk.db"),
      targetUrl: target,
      clock: systemClock,
      log: (line) => console.log(line),
    });
    console.log(summary(report, "the target's triggers"));
    const files = s3FilesOf(env);
    if (files) {
      const copied = await copyFiles(localBlobStore(dataDir), s3BlobStore(files), (line) => console.log(line));
      console.log(`copied ${copied.files} files (${copied.bytes} bytes) from ${dataDir} into ${files.url}`);
    }
    console.log(cutOverSteps(dataDir, target, env));
    return 0;
  } catch (error) {
    if (!(error instanceof MigrateToError || error instanceof SourceRunningError)) throw error;
    console.error(`desk migrate-to: ${error.message}`);
    return 1;
  }
}
