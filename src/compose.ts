import { migrations } from "../migrations/index";
import { join } from "node:path";
import { apiKeyLookups } from "./api-keys/api-keys.public";
import { createCredentialResolver, MEMBERSHIP_EVENTS } from "./auth/credentials";
import { guardPlugin } from "./auth/guard";
import { createTokenService } from "./auth/tokens";
import type { VisitorResolver } from "./auth/visitors";
import type { Config } from "./config/config";
import { openDatabase, optimizeDatabase, type Db } from "./db/database";
import { createRuntime } from "./runtime";
import { migrate } from "./db/migrate";
import { createReadPool } from "./db/read-pool";
import type { Deps, MachineryLookups } from "./deps";
import type { HttpDeps } from "./http/server";
import { checkEventData, onEventInTransaction } from "./events/bus";
import { createEventCatalogue } from "./events/catalogue";
import type { AnyEventDefinition } from "./events/define";
import { storedSeqsLookup } from "./events/events.seqs";
import { systemClock, type Clock } from "./lib/clock";
import { createSecretBox } from "./lib/crypto";
import { createLogger, type Logger } from "./lib/logger";
import { memberRoleLookup, membershipsOf, ssoOnlyWorkspacesLookup } from "./members/members.public";
import { privateTeamsLookup } from "./teams/teams.public";
import { modules as registered } from "./registry";
import { bindPorts } from "./lib/ports";
import type { FeatureModule } from "./module";
import { chatContactOfTicket } from "./tickets/tickets.public";
import { visitorIdempotencyCaller, visitorResolver, visitorView } from "./widget/widget.public";

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

/** The features' answers to what machinery asks (credentials, grants, seqs), each prepared once. */
export function machineryLookups(db: Db): MachineryLookups {
  const keys = apiKeyLookups(db);
  return {
    keyByHash: keys.keyByHash,
    touchKey: keys.touchKey,
    liveKeyScopes: keys.liveKeyScopes,
    memberRole: memberRoleLookup(db),
    privateTeams: privateTeamsLookup(db),
    workspacesOf: (userId) => membershipsOf(db, userId),
    ssoOnlyWorkspaces: ssoOnlyWorkspacesLookup(db),
    storedSeqs: storedSeqsLookup(db),
    chatContactOf: (workspaceId, ticketId) => chatContactOfTicket(db, workspaceId, ticketId),
    visitorView,
  };
}

/**
 * Builds the dependencies once: opens and migrates the database, then wires machinery to the
 * features' public lookups. `start.ts` (serve) and scripts call it; machinery never does.
 */
export function buildDeps(config: Config, overrides: BuildOptions = {}): Deps {
  const modules = overrides.modules ?? registered;
  // First, so a module list missing a provider fails before anything is opened.
  const ports = bindPorts(
    modules.map((m) => ({ module: m.name, ports: m.ports })),
    modules.map((m) => ({ module: m.name, provides: m.provides })),
  );
  const db = overrides.db ?? openDatabase(config.databasePath, createRuntime());
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const applied = migrate(db.$client, migrations, {
    snapshotDir: join(config.dataDir, "snapshots"),
    clock: overrides.clock,
  });
  // An operator upgrading wants to see which schema changes this start made, one line each.
  for (const tag of applied) logger.info({ subsystem: "db", migration: tag }, "applied migration");
  optimizeDatabase(db, true);
  const clock = overrides.clock ?? systemClock;
  const tokens = createTokenService(config.secret, () => clock.now());
  const lookups = machineryLookups(db);
  checkEventData(db, config.responseChecks);
  const credentials = createCredentialResolver({ db, tokens, clock, lookups });
  // A member, team or workspace event may change someone's role or private teams.
  onEventInTransaction(db, (tx, event) => {
    if (MEMBERSHIP_EVENTS.test(event.type)) credentials.membershipsChanged(tx);
  });
  return {
    config,
    db,
    logger,
    clock,
    secrets: createSecretBox(config.secret),
    tokens,
    credentials,
    guard: guardPlugin(credentials, { visitors: overrides.visitors ?? visitorResolver(db, clock), clock }),
    lookups,
    events: createEventCatalogue(registeredEvents(modules)),
    reads: createReadPool({
      db,
      path: config.databasePath,
      workers: config.reads.workers,
      budgetMs: config.reads.budgetMs,
      spawn: () => new Worker(IN_EXECUTABLE ? "./src/read-worker.ts" : new URL("./read-worker.ts", import.meta.url)),
      logger: logger.child({ subsystem: "reads" }),
      modules: config.reads.modules,
    }),
    ports,
  };
}

/** What the HTTP layer needs of the dependencies. */
export const httpDepsOf = (deps: Deps): HttpDeps => {
  // Widget visitors' writes are idempotent per visitor session; everyone else per person or key.
  const visitorCaller = visitorIdempotencyCaller(deps);
  return {
    db: deps.db,
    secrets: deps.secrets,
    clock: deps.clock,
    logger: deps.logger,
    metricsToken: deps.config.metricsToken,
    baseUrl: deps.config.baseUrl,
    callerScope: async (request) => visitorCaller(request) ?? deps.credentials.callerScope(request),
  };
};
