import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "bun:test";
import { loadConfig, type Config } from "../src/config/config";
import type { Clock } from "../src/lib/clock";
import type { FeatureModule } from "../src/module";
import { startDesk, type Desk, type StartOptions } from "../src/start";
import { freshPostgresDatabase, onPostgres } from "./kit/postgres";

export type TestDesk = Desk & {
  dataDir: string;
  /** Calls the full HTTP stack in-process (no socket): `api("GET", "/v1/me", { headers })`. */
  api: (
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: unknown; raw?: BodyInit },
  ) => Promise<ApiResult>;
};

/** On PostgreSQL: each test desk's database, by its data dir. */
const databaseOfDataDir = new Map<string, string>();

export type ApiResult = { status: number; headers: Headers; body: any; text: string };

/**
 * Starts a real Desk on port 0 with its own data dir; stops it after the test file.
 * `env` sets DESK_* variables (for example DESK_SMTP_PORT to run the receiver).
 */
export async function startTestDesk(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    config?: Partial<Config>;
    keepAlive?: boolean;
    /** Passed to startDesk: pages outside /v1, a visitor resolver. */
    start?: Pick<StartOptions, "http" | "visitors" | "onFirstRequest">;
    /** The modules to run instead of src/registry.ts's list. */
    modules?: readonly FeatureModule[];
  } = {},
): Promise<TestDesk> {
  const dataDir = mkdtempSync(join(tmpdir(), "desk-test-"));
  // A desk started again on an earlier desk's data dir (a restart) finds that desk's database too.
  // A desk given a database (another node of a first desk's database) shares it, and leaves it to its owner.
  const restarted =
    options.env?.DESK_DATABASE_URL ??
    (options.config?.dataDir ? databaseOfDataDir.get(options.config.dataDir) : undefined);
  const database = onPostgres && !restarted ? await freshPostgresDatabase() : null;
  const databaseUrl = restarted ?? database?.url;
  const config = loadConfig(
    {
      DESK_HOST: "127.0.0.1",
      DESK_PORT: "0",
      DESK_SMTP_PORT: "0",
      DESK_DATA_DIR: dataDir,
      DESK_SECRET: "test-secret-that-is-long-enough-0123456789",
      DESK_INBOUND_SECRET: "test-inbound-secret",
      DESK_LOG_LEVEL: process.env.DESK_LOG_LEVEL ?? "silent",
      DESK_JOBS: "on",
      // Scheduled backups spawn a process; tests of them turn it on.
      DESK_BACKUP_INTERVAL: "off",
      // Every answer is checked against its response schema, so contract drift fails the test.
      DESK_RESPONSE_CHECKS: "on",
      ...(databaseUrl ? { DESK_DATABASE_URL: databaseUrl } : {}),
      ...options.env,
    },
    options.config,
  );
  const desk = await startDesk(config, {
    ...options.start,
    clock: options.clock,
    webAssets: null,
    modules: options.modules,
  });
  if (database) databaseOfDataDir.set(config.dataDir, database.url);
  const api: TestDesk["api"] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    let body: BodyInit | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await desk.fetch(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  if (!options.keepAlive) {
    // A stop waits for the reactions in hand (a consumer's batch, a running job): on PostgreSQL each is
    // a transaction with round trips, which a loaded machine can stretch past the default 5 s.
    afterAll(async () => {
      await desk.stop().catch(() => {});
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }, 20_000);
  }
  return Object.assign(desk, { dataDir, api });
}

/**
 * The environment a command of its own (`desk user`, `desk import`, a second process) needs to work
 * on this test desk's data: its data dir and secrets, and on PostgreSQL its database.
 */
export const storeEnvOf = (desk: TestDesk): Record<string, string> => ({
  DESK_DATA_DIR: desk.dataDir,
  DESK_SECRET: desk.deps.config.secret,
  DESK_INBOUND_SECRET: desk.deps.config.inboundSecret,
  ...(desk.deps.config.databaseUrl ? { DESK_DATABASE_URL: desk.deps.config.databaseUrl } : {}),
});
