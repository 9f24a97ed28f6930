import { constants, accessSync, existsSync, readdirSync, statfsSync, statSync } from "node:fs";
import { resolve as resolveDns } from "node:dns/promises";
import { join, resolve } from "node:path";
import { migrations } from "../../migrations/index";
import { postgresMigrations } from "../../migrations/postgres/index";
import { type Config, loadConfig } from "../config/config";
import { isPostgresUrl } from "../config/engine";
import { smtpSettingsFromUrl, verifySmtp } from "../mail/mail.send";
import { doctorStatements, shownDatabase } from "./doctor.statements";

export type Verdict = "ok" | "warn" | "fail";
export type Finding = { verdict: Verdict; check: string; detail: string; fix?: string };

/** What the checks may reach; tests swap the network parts. */
export type DoctorProbes = {
  mx: (domain: string) => Promise<string[]>;
  smtpVerify: (url: string) => Promise<void>;
  fetchHealth: (url: string) => Promise<number | null>;
  portFree: (host: string, port: number) => boolean;
};

const LOW_DISK_BYTES = 1024 ** 3;
const NETWORK_TIMEOUT_MS = 5_000;

const withTimeout = <T>(promise: Promise<T>, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: no answer in ${NETWORK_TIMEOUT_MS / 1000} s`)), NETWORK_TIMEOUT_MS),
    ),
  ]);

export const realProbes: DoctorProbes = {
  mx: async (domain) => (await withTimeout(resolveDns(domain, "MX"), "DNS")).map((r) => r.exchange),
  smtpVerify: (url) => withTimeout(verifySmtp(smtpSettingsFromUrl(url)), "SMTP relay"),
  async fetchHealth(url) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS) });
      return res.status;
    } catch {
      return null;
    }
  },
  portFree(host, port) {
    try {
      const probe = Bun.serve({ hostname: host, port, fetch: () => new Response() });
      probe.stop(true);
      return true;
    } catch {
      return false;
    }
  },
};

const mode = (path: string) => statSync(path).mode & 0o777;
const octal = (value: number) => `0${value.toString(8)}`;

/** Files and folders in the data dir that others than Desk's user may read. */
function looseEntries(dataDir: string): string[] {
  const loose: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path);
      if ((stat.mode & 0o077) !== 0) loose.push(`${path} (${octal(stat.mode & 0o777)})`);
      if (stat.isDirectory() && depth < 2) walk(path, depth + 1);
    }
  };
  walk(dataDir, 0);
  return loose;
}

/** `onServer`: the database is a PostgreSQL server's (DESK_DATABASE_URL), so the data dir holds files and secrets only. */
function checkDataDir(dataDir: string, onServer: boolean): Finding[] {
  if (!existsSync(dataDir))
    return [
      { verdict: "warn", check: "data dir", detail: `${dataDir} does not exist yet; Desk creates it (0700) at start` },
    ];
  const findings: Finding[] = [];
  try {
    accessSync(dataDir, constants.W_OK | constants.R_OK);
  } catch {
    findings.push({
      verdict: "fail",
      check: "data dir",
      detail: `${dataDir} is not readable and writable by this user`,
      fix: `chown -R $(id -u):$(id -g) ${dataDir}, or run desk as the user that owns it`,
    });
  }
  if ((mode(dataDir) & 0o077) !== 0)
    findings.push({
      verdict: "fail",
      check: "data dir permissions",
      detail: `${dataDir} is open to other users (${octal(mode(dataDir))}): it holds ${onServer ? "the secrets and stored files" : "the database and secrets"}`,
      fix: `chmod 700 ${dataDir}`,
    });
  const loose = looseEntries(dataDir);
  if (loose.length)
    findings.push({
      verdict: "fail",
      check: "data dir permissions",
      detail: `readable by other users: ${loose.slice(0, 5).join(", ")}${loose.length > 5 ? ` and ${loose.length - 5} more` : ""}`,
      fix: `chmod -R go-rwx ${dataDir}`,
    });
  const free = statfsSync(dataDir);
  const freeBytes = free.bavail * free.bsize;
  findings.push(
    freeBytes < LOW_DISK_BYTES
      ? {
          verdict: "warn",
          check: "disk space",
          detail: `${(freeBytes / 1024 ** 2).toFixed(0)} MB free where the data dir is`,
          fix: onServer
            ? "free space or move the data dir: attachments, raw mail and backups are written there"
            : "free space or move the data dir: SQLite needs room for its WAL and backups",
        }
      : { verdict: "ok", check: "disk space", detail: `${(freeBytes / 1024 ** 3).toFixed(1)} GB free` },
  );
  if (!findings.some((f) => f.verdict === "fail"))
    findings.unshift({ verdict: "ok", check: "data dir", detail: `${dataDir} is private to this user` });
  return findings;
}

async function checkDatabase(config: Config): Promise<Finding[]> {
  if (config.databaseUrl) return await checkDatabaseServer(config.databaseUrl);
  if (!existsSync(config.databasePath))
    return [{ verdict: "ok", check: "database", detail: "none yet: created and migrated at first start" }];
  const inspection = await doctorStatements("sqlite").inspect(config.databasePath);
  if (!inspection.opened)
    return [{ verdict: "fail", check: "database", detail: `cannot open ${config.databasePath}: ${inspection.error}` }];
  return [
    inspection.problems.length
      ? {
          verdict: "fail",
          check: "database integrity",
          detail: inspection.problems.slice(0, 3).join("; "),
          fix: "stop Desk and restore the newest backup (desk restore <file>)",
        }
      : { verdict: "ok", check: "database integrity", detail: "quick_check passed" },
    versionFinding(
      inspection.applied,
      migrations.map((m) => m.tag),
      "run the newer desk binary, or restore the pre-migrate snapshot under <data dir>/snapshots",
    ),
  ];
}

/**
 * DESK_DATABASE_URL: the server's reachability and version instead of a file, its B-tree indexes
 * checked with amcheck when the extension is installed, and the migrations as on SQLite.
 */
async function checkDatabaseServer(url: string): Promise<Finding[]> {
  const shown = shownDatabase(url);
  const inspection = await doctorStatements("postgres").inspect(url);
  if (!inspection.opened)
    return [
      {
        verdict: "fail",
        check: "database",
        detail: `cannot reach PostgreSQL at ${shown}: ${inspection.error}`,
        fix: "check DESK_DATABASE_URL (host, port, database, user and password), that the server runs, and that this host may reach it",
      },
    ];
  const findings: Finding[] = [
    { verdict: "ok", check: "database", detail: `${inspection.server ?? "PostgreSQL"} at ${shown} answers` },
  ];
  if (inspection.problems.length)
    findings.push({
      verdict: "fail",
      check: "database integrity",
      detail: inspection.problems.slice(0, 3).join("; "),
      fix: "REINDEX the damaged indexes (REINDEX INDEX CONCURRENTLY <name>), and check the server's storage",
    });
  else if (inspection.checked == null)
    findings.push({
      verdict: "ok",
      check: "database integrity",
      detail:
        "indexes not checked: the amcheck extension is not installed (CREATE EXTENSION amcheck to have them checked)",
    });
  else
    findings.push({
      verdict: "ok",
      check: "database integrity",
      detail: `amcheck passed on ${inspection.checked} index(es)`,
    });
  if (inspection.applied.length === 0)
    findings.push({ verdict: "ok", check: "database version", detail: "empty: migrated at first start" });
  else
    findings.push(
      versionFinding(
        inspection.applied,
        postgresMigrations.flatMap((m) => m.covers),
        "run the newer desk binary, or restore the server's backup taken before that release migrated it",
      ),
    );
  return findings;
}

/** The migrations a database holds against this binary's (the same tags on both engines). */
function versionFinding(applied: string[], known: readonly string[], fix: string): Finding {
  const knownTags = new Set(known);
  const newer = applied.filter((tag) => !knownTags.has(tag));
  if (newer.length)
    return {
      verdict: "fail",
      check: "database version",
      detail: `the database has migrations this binary lacks (${newer.join(", ")})`,
      fix,
    };
  const pending = known.filter((tag) => !applied.includes(tag));
  return {
    verdict: "ok",
    check: "database version",
    detail: pending.length ? `${pending.length} migration(s) run at next start` : "up to date",
  };
}

async function checkInbound(config: Config, probes: DoctorProbes): Promise<Finding> {
  const domain = config.inboundDomain;
  if (domain === "localhost" || domain === "127.0.0.1" || !domain.includes("."))
    return {
      verdict: "warn",
      check: "inbound mail (MX)",
      detail: `inbound domain is ${domain}: mail from the internet cannot reach it`,
      fix: "set DESK_INBOUND_DOMAIN (or DESK_BASE_URL) to a domain whose MX points at this host",
    };
  try {
    const hosts = await probes.mx(domain);
    if (hosts.length === 0) throw new Error("no MX record");
    return { verdict: "ok", check: "inbound mail (MX)", detail: `${domain} MX → ${hosts.join(", ")}` };
  } catch (error) {
    return {
      verdict: "fail",
      check: "inbound mail (MX)",
      detail: `no MX record for ${domain} (${error instanceof Error ? error.message : String(error)})`,
      fix: `add an MX record: ${domain} → this host's name, and open port ${config.smtpPort} to it`,
    };
  }
}

async function checkRelay(config: Config, probes: DoctorProbes): Promise<Finding> {
  if (!config.smtpRelayUrl)
    return {
      verdict: "warn",
      check: "system mail relay",
      detail: "DESK_SMTP_URL unset: invitations and password resets are written to <data dir>/outbox, not sent",
      fix: "set DESK_SMTP_URL=smtp://user:pass@relay:587",
    };
  const shown = config.smtpRelayUrl.replace(/\/\/[^@/]*@/, "//…@");
  try {
    await probes.smtpVerify(config.smtpRelayUrl);
    return { verdict: "ok", check: "system mail relay", detail: `${shown} accepts a connection and sign-in` };
  } catch (error) {
    return {
      verdict: "fail",
      check: "system mail relay",
      detail: `${shown}: ${error instanceof Error ? error.message : String(error)}`,
      fix: "check host, port, TLS and credentials in DESK_SMTP_URL, and that this host may reach it",
    };
  }
}

async function checkListener(config: Config, probes: DoctorProbes): Promise<Finding[]> {
  const findings: Finding[] = [];
  const local = `http://${config.host === "0.0.0.0" ? "127.0.0.1" : config.host}:${config.port}`;
  const status = await probes.fetchHealth(`${local}/healthz`);
  if (status === 200) findings.push({ verdict: "ok", check: "HTTP", detail: `Desk answers on ${local}` });
  else if (probes.portFree(config.host, config.port))
    findings.push({ verdict: "ok", check: "HTTP", detail: `port ${config.port} is free for Desk` });
  else
    findings.push({
      verdict: "fail",
      check: "HTTP",
      detail: `something other than Desk holds ${config.host}:${config.port}`,
      fix: "stop it or set DESK_PORT",
    });
  if (!config.baseUrl.startsWith("https://") && !/\/\/(localhost|127\.0\.0\.1)[:/]/.test(`${config.baseUrl}/`))
    findings.push({
      verdict: "warn",
      check: "HTTPS",
      detail: `DESK_BASE_URL is ${config.baseUrl}: sign-in cookies and passwords cross the network in clear`,
      fix: "serve Desk behind a TLS reverse proxy (README: Caddy or nginx) and set DESK_BASE_URL=https://…",
    });
  return findings;
}

/** Runs every check and returns what it found, worst first within each area. */
export async function diagnose(
  env: Record<string, string | undefined>,
  probes: DoctorProbes = realProbes,
): Promise<Finding[]> {
  // Looked at before loading the configuration, which makes a fresh data dir private by itself.
  const findings = checkDataDir(resolve(env.DESK_DATA_DIR ?? "./data"), isPostgresUrl(env.DESK_DATABASE_URL));
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    findings.unshift({
      verdict: "fail",
      check: "configuration",
      detail: error instanceof Error ? error.message : String(error),
      fix: "see README.md, Configuration: every DESK_* variable and its form",
    });
    return findings;
  }
  findings.unshift({ verdict: "ok", check: "configuration", detail: `loaded; base URL ${config.baseUrl}` });
  findings.push(...(await checkDatabase(config)));
  findings.push(...(await checkListener(config, probes)));
  findings.push(await checkInbound(config, probes));
  findings.push(await checkRelay(config, probes));
  return findings;
}

export function formatFindings(findings: Finding[]): string {
  const lines = findings.map((f) => {
    const head = `${f.verdict.padEnd(4)}  ${f.check}: ${f.detail}`;
    return f.fix && f.verdict !== "ok" ? `${head}\n      → ${f.fix}` : head;
  });
  const failed = findings.filter((f) => f.verdict === "fail").length;
  const warned = findings.filter((f) => f.verdict === "warn").length;
  lines.push("", failed ? `${failed} problem(s) to fix, ${warned} warning(s)` : `no problems, ${warned} warning(s)`);
  return lines.join("\n");
}
