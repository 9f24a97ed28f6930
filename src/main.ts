#!/usr/bin/env bun
import { loadConfig } from "./config/config";
import { join } from "node:path";
import { closeDatabase, migrateDatabase, openDatabase } from "./db/engine";
import { createRuntime } from "./db/runtime";
import { embeddedWebAssets } from "./http/embedded";
import { ensureWebBuild } from "./http/web-build";
import { createLogger } from "./lib/logger";
import { startDesk } from "./start";
import { lineages } from "../migrations/lineages";
import { runUserCommand, USER_USAGE } from "./identity/users.cli";
import { IMPORT_USAGE, runImportCommand } from "./imports/imports.cli";
import { buildDeps } from "./compose";
import { modules } from "./registry";
import { BACKUP_USAGE, RESTORE_USAGE, runBackupCommand, runRestoreCommand } from "./backups/backups.cli";
import { NewerDatabaseError } from "./db/sqlite/migrate";
import { assertWritableDataDir, DataDirUnwritableError } from "./db/storage";
import { buildInfo } from "./lib/version";
import { PortTakenError } from "./lib/port-taken";
import { startQuietCollector } from "./lib/quiet-collector";
import { MIGRATE_TO_USAGE } from "./migrate-to/migrate-to.usage";

const USAGE = `Usage: desk <command>

Commands:
  serve     run the help desk (HTTP API, web app, gateway, SMTP receiver, jobs)
  migrate   apply database migrations and exit
  ${MIGRATE_TO_USAGE}
            copy a stopped desk (DESK_DATA_DIR) into an empty PostgreSQL database and verify it, or back
  user      ${USER_USAGE}
  ${BACKUP_USAGE}
            write a consistent archive while Desk serves, or check one
  ${RESTORE_USAGE}
            restore an archive into an empty data dir
  ${IMPORT_USAGE}
  doctor    check configuration, data dir permissions, the database, DNS (MX) and the mail relay
  version   print the version and the commit this build was made from (also --version)
  help      show this text

Configuration comes from DESK_* environment variables; see README.md.`;

async function main(argv: string[]): Promise<number> {
  // Every file and folder Desk creates (the database and SQLite's -wal and -shm, attachments, raw
  // mail, the outbox, generated secrets) is 0600 / 0700 whatever umask the process was started with,
  // without each writer having to remember a mode. Set here, in the process entry, rather than in
  // startDesk: tests run Desk inside a process whose other files (peers' configs) must stay readable.
  process.umask(0o077);
  const command = argv[0] ?? "serve";
  if (command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return 0;
  }
  if (command === "version" || command === "--version" || command === "-v") {
    const { version, commit } = buildInfo();
    console.log(`desk ${version}${commit ? ` (commit ${commit})` : ""}`);
    return 0;
  }
  if (command === "restore") return runRestoreCommand(argv.slice(1));
  // Loaded only for its own command: `desk serve` keeps none of it in memory.
  if (command === "migrate-to") return (await import("./migrate-to/migrate-to.cli")).runMigrateToCommand(argv.slice(1));
  if (command === "backup") return runBackupCommand(loadConfig, argv.slice(1));
  if (command === "doctor") {
    const { diagnose, formatFindings } = await import("./doctor/doctor");
    const findings = await diagnose(process.env);
    console.log(formatFindings(findings));
    return findings.some((f) => f.verdict === "fail") ? 1 : 0;
  }
  // Before the configuration, which may already write generated secrets into the data dir.
  if (command === "serve" || command === "migrate") assertWritableDataDir(process.env.DESK_DATA_DIR ?? "./data");
  const config = loadConfig();
  if (command === "migrate") {
    const db = openDatabase(config.databaseUrl ?? config.databasePath, createRuntime());
    const applied = await migrateDatabase(db, lineages, { snapshotDir: join(config.dataDir, "snapshots") });
    console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
    await closeDatabase(db);
    return 0;
  }
  if (command === "user") return runUserCommand(config, argv.slice(1));
  // Imported writes reach webhooks and search through the modules' in-transaction hooks, as the server's do.
  if (command === "import")
    return runImportCommand(argv.slice(1), async () => {
      const deps = await buildDeps(config);
      for (const module of modules) await module.inTransaction?.(deps);
      return { deps, close: () => closeDatabase(deps.db) };
    });
  if (command !== "serve") {
    console.error(`unknown command: ${command}\n\n${USAGE}`);
    return 2;
  }
  // From source (not the compiled executable, whose web files are embedded) build web/dist first
  // when it is missing or stale, so `bun install && bun start` serves the web app.
  if (!embeddedWebAssets())
    await ensureWebBuild(join(import.meta.dir, "..", "web"), createLogger(config.logLevel).child({ subsystem: "web" }));
  // The executable starts with the JIT held back (scripts/build.ts): start-up code runs once, and the
  // housekeeping of a server nobody uses yet (consumers polling, minute jobs) is not worth compiling
  // either; each compile maps in more of the compiler (measured: idle RSS 75 → 76–81 MB a few seconds
  // after start). Normal tier-up comes back with the first request that is not a probe.
  const desk = await startDesk(config, { onFirstRequest: () => Bun.unsafe.setJITPolicy?.(1) });
  // Starting up leaves garbage (module initialisation, migrations) and a heap sized for it; an idle
  // server carries neither (measured: the shrink takes 3.5 MB off the idle RSS). Once as soon as the
  // server answers (else its first second peaked ~3 MB above the idle figure), again a second later
  // for what the first passes of the consumers and jobs left.
  const returnStartUpMemory = () => {
    Bun.gc(true);
    Bun.shrink();
  };
  returnStartUpMemory();
  setTimeout(returnStartUpMemory, 1000).unref();
  // What a burst of requests grew is handed back once the server goes quiet (src/lib/quiet-collector.ts).
  const quietCollector = startQuietCollector();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    quietCollector.stop();
    desk.deps.logger.info({ signal }, "shutting down");
    await desk.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  return -1;
}

// A database newer than this binary, a port another process holds, or a data dir Desk cannot write
// is the operator's to resolve: say so in one line, not as a crash with a stack trace.
const code = await main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    !(error instanceof NewerDatabaseError || error instanceof PortTakenError || error instanceof DataDirUnwritableError)
  )
    throw error;
  console.error(`desk: refusing to start: ${error.message}`);
  return 1;
});
if (code >= 0) process.exit(code);
