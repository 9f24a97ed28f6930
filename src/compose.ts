import { lineages } from "../migrations/lineages";
import { join } from "node:path";
import { createCredentialResolver } from "./auth/credentials";
import { guardPlugin } from "./auth/guard";
import { createTokenService } from "./auth/tokens";
import { credentialLookupsOf, visitorCaller, visitorSessions } from "./auth/auth.ports";
import type { VisitorResolver } from "./auth/visitors";
import type { Config } from "./config/config";
import type { Db } from "./db/database";
import { migrateDatabase, openDatabase, optimizeDatabase } from "./db/engine";
import { createRuntime } from "./db/runtime";
import { setDeskClock } from "./db/desk-clock";
import { createReadPool } from "./db/read-pool";
import type { Deps, MachineryLookups } from "./deps";
import type { HttpDeps } from "./http/server";
import { useRateLimitStore } from "./http/rate-limit";
import { postgresRateLimitStore } from "./http/rate-limit.postgres";
import { checkEventData } from "./events/bus";
import { eventWorkspaceCheck, useEventWorkspaceCheck } from "./events/seq-counter";
import { createEventCatalogue } from "./events/catalogue";
import type { AnyEventDefinition } from "./events/define";
import { blobStoreOf } from "./lib/blob-store";
import { systemClock, type Clock } from "./lib/clock";
import { createSecretBox } from "./lib/crypto";
import { createLogger, type Logger } from "./lib/logger";
import { modules as registered } from "./registry";
import { bindPorts, type Ports } from "./lib/ports";
import type { FeatureModule } from "./module";
import { gatewayLookupsOf } from "./realtime/realtime.ports";

export type BuildOptions = {
  db?: Db;
  logger?: Logger;
  clock?: Clock;
  visitors?: VisitorResolver;
  /** The modules Desk runs (default: src/registry.ts): their ports are bound and their events catalogued. */
  modules?: readonly FeatureModule[];
};

/**
 * Inside dist/desk, sources live in Bun's embedded file system, where the worker is an entry point
 * named from the build's root (scripts/build.ts); from source, it sits beside this file.
 */
const IN_EXECUTABLE = import.meta.url.includes("$bunfs");

/** Every event type the registered modules define. */
export const registeredEvents = (modules: readonly FeatureModule[] = registered): AnyEventDefinition[] =>
  modules.flatMap((m) => m.events ?? []);

/** The features' answers to what machinery asks (credentials, grants, seqs), through their ports, each prepared once. */
function machineryLookups(db: Db, ports: Ports): MachineryLookups {
  const credentials = credentialLookupsOf(ports, db);
  return { ...credentials, ...gatewayLookupsOf(ports, db, credentials) };
}

/**
 * Builds the dependencies once: opens and migrates the database, then wires machinery to the
 * features' public lookups. `start.ts` (serve) and scripts call it; machinery never does.
 */
export async function buildDeps(config: Config, overrides: BuildOptions = {}): Promise<Deps> {
  const modules = overrides.modules ?? registered;
  // First, so a module list missing a provider fails before anything is opened.
  const ports = bindPorts(
    modules.map((m) => ({ module: m.name, ports: m.ports })),
    modules.map((m) => ({ module: m.name, provides: m.provides })),
  );
  const db = overrides.db ?? openDatabase(config.databaseUrl ?? config.databasePath, createRuntime());
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const applied = await migrateDatabase(db, lineages, {
    snapshotDir: join(config.dataDir, "snapshots"),
    clock: overrides.clock,
  });
  // An operator upgrading wants to see which schema changes this start made, one line each.
  for (const tag of applied) logger.info({ subsystem: "db", migration: tag }, "applied migration");
  optimizeDatabase(db, true);
  const clock = overrides.clock ?? systemClock;
  const tokens = createTokenService(config.secret, () => clock.now());
  const lookups = machineryLookups(db, ports);
  checkEventData(db, config.responseChecks);
  useEventWorkspaceCheck(db, ports.get(eventWorkspaceCheck));
  setDeskClock(db, clock);
  // Several nodes share one PostgreSQL database: their rate limits count in a table every node sees.
  if (config.databaseUrl)
    useRateLimitStore(
      db,
      postgresRateLimitStore(db, () => clock.now().getTime()),
    );
  const credentials = createCredentialResolver({ db, tokens, clock, lookups });
  return {
    config,
    db,
    logger,
    clock,
    secrets: createSecretBox(config.secret),
    tokens,
    credentials,
    guard: guardPlugin(credentials, { visitors: overrides.visitors ?? ports.get(visitorSessions)(db, clock), clock }),
    lookups,
    events: createEventCatalogue(registeredEvents(modules)),
    reads: createReadPool({
      db,
      path: config.databasePath,
      // On PostgreSQL a slow read takes a pooled connection, not the event loop: no worker threads.
      workers: config.databaseUrl ? 0 : config.reads.workers,
      budgetMs: config.reads.budgetMs,
      spawn: () => new Worker(IN_EXECUTABLE ? "./src/read-worker.ts" : new URL("./read-worker.ts", import.meta.url)),
      logger: logger.child({ subsystem: "reads" }),
      modules: config.reads.modules,
    }),
    ports,
    blobs: blobStoreOf(config),
  };
}

/** What the HTTP layer needs of the dependencies. */
export const httpDepsOf = (deps: Deps): HttpDeps => {
  // Widget visitors' writes are idempotent per visitor session; everyone else per person or key.
  const visitorScope = deps.ports.get(visitorCaller)(deps);
  return {
    db: deps.db,
    secrets: deps.secrets,
    clock: deps.clock,
    logger: deps.logger,
    metricsToken: deps.config.metricsToken,
    baseUrl: deps.config.baseUrl,
    callerScope: async (request) => (await visitorScope(request)) ?? (await deps.credentials.callerScope(request)),
  };
};
