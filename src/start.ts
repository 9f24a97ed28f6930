import type { Server } from "bun";
import { join } from "node:path";
import { buildApp } from "./app";
import { listenerBaseUrl, type Config } from "./config/config";
import { buildDeps, httpDepsOf } from "./compose";
import type { Deps } from "./deps";
import { startCheckpointer } from "./db/sqlite/checkpointer";
import { closeDatabase } from "./db/engine";
import { commitPending } from "./db/tx";
import { recoverIdempotencyKeys } from "./http/idempotency";
import { createHttpHandler, edgeErrorHandler, MAX_BODY_BYTES, type HttpHandler, type HttpOptions } from "./http/server";
import { embeddedWebAssets } from "./http/embedded";
import { createReadiness } from "./http/readiness";
import { mailboxHealthOf } from "./mailboxes/mailboxes.public";
import { webAssetsFromDisk, type WebAssets } from "./http/web-assets";
import { createJobRunner, type JobRunner } from "./jobs/runner";
import type { Clock } from "./lib/clock";
import { isAddressInUse, PortTakenError } from "./lib/port-taken";
import type { VisitorResolver } from "./auth/visitors";
import type { FeatureModule, Subsystem } from "./module";
import { modules as registered } from "./registry";
import { createConsumerRunner, type ConsumerRunner } from "./events/consumers";
import { createRealtimeGateway } from "./realtime/gateway";
import { closeSmtpPools } from "./mail/mail.send";
import { recordCheckpoint, recordHttpRequest, renderMetrics, type MetricSource } from "./metrics/metrics";
import { consumersSource, databaseSource, jobsSource } from "./metrics/metrics.sources";

export type Desk = {
  deps: Deps;
  server: Server<unknown>;
  url: string;
  jobs: JobRunner;
  /** Durable event consumers of every module (`desk.consumers.drain()` handles what is stored). */
  consumers: ConsumerRunner;
  /** Subsystems modules started, in start order. */
  subsystems: Subsystem[];
  /** The embedded SMTP receiver's port, or null when it is off (config.smtpPort 0). */
  smtpPort: number | null;
  fetch: (request: Request) => Promise<Response>;
  stop(): Promise<void>;
};

export type StartOptions = {
  clock?: Clock;
  webAssets?: WebAssets | null;
  http?: Pick<HttpOptions, "upgrade" | "observe" | "pages">;
  /** Visitor sessions for `Authorization: Visitor <token>` routes (the widget feature's resolver). */
  visitors?: VisitorResolver;
  /** The modules to run (default: src/registry.ts); tests add or leave out one. */
  modules?: readonly FeatureModule[];
  /** Called once, on the first request that is not a probe (/healthz, /readyz, /metrics). */
  onFirstRequest?: () => void;
};

const PROBE_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

function listenOrRefuse<T>(config: Config, listen: () => T): T {
  try {
    return listen();
  } catch (error) {
    if (isAddressInUse(error)) throw new PortTakenError("HTTP", config.host, config.port);
    throw error;
  }
}

/**
 * The composition root: migrations → HTTP (API, web app, gateway) → jobs; stop runs in reverse.
 * `main.ts` calls it for `serve`; tests call it with port 0.
 */
export async function startDesk(config: Config, options: StartOptions = {}): Promise<Desk> {
  const modules = options.modules ?? registered;
  const deps = await buildDeps(config, {
    clock: options.clock,
    visitors: options.visitors,
    modules,
  });
  // The WAL checkpointer and the file's size are the SQLite file's; PostgreSQL keeps its own.
  const checkpointer = config.databaseUrl
    ? null
    : startCheckpointer(deps.db, config.databasePath, deps.logger.child({ subsystem: "db" }), {
        onCheckpoint: recordCheckpoint,
      });
  for (const module of modules) await module.inTransaction?.(deps);
  const recovered = await recoverIdempotencyKeys(deps.db);
  if (recovered > 0)
    deps.logger.warn(
      { keys: recovered },
      "dropped idempotency keys left running by an earlier process; their retries run again",
    );
  const gateway = await createRealtimeGateway(deps);
  const metricSources = [
    jobsSource(deps.db, deps.clock),
    ...(config.databaseUrl ? [] : [databaseSource(config.databasePath)]),
    gateway.metrics(),
  ];
  const handler = httpHandlerOf(deps, modules, options, gateway, metricSources);
  const server = serveHttp(config, deps, handler, gateway, options.onFirstRequest);
  const subsystems: Subsystem[] = [];
  for (const module of modules) {
    const started = await module.start?.(deps);
    if (started) subsystems.push(...(Array.isArray(started) ? started : [started]));
  }
  const { jobs, consumers } = await startBackgroundWork(config, deps, modules);
  metricSources.push(consumersSource(deps.db, deps.clock, consumers));
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  deps.logger.info({ url, base_url: config.baseUrl, data_dir: config.dataDir }, "desk is serving");
  return {
    deps,
    server,
    url,
    jobs,
    consumers,
    subsystems,
    smtpPort: subsystems.find((s) => s.name === "smtp")?.port ?? null,
    fetch: (request) => handler(request, server),
    async stop() {
      gateway.stop();
      for (const subsystem of subsystems.toReversed()) await subsystem.stop();
      await server.stop();
      await consumers.stop();
      await jobs.stop();
      // Pooled SMTP connections are the process's; another desk of this process opens them again.
      closeSmtpPools();
      commitPending(deps.db);
      checkpointer?.stop();
      deps.reads.stop();
      await closeDatabase(deps.db);
    },
  };
}

type RealtimeGateway = Awaited<ReturnType<typeof createRealtimeGateway>>;

/** The HTTP layer in front of the API, the web app, the gateway, the probes and the modules' pages. */
function httpHandlerOf(
  deps: Deps,
  modules: readonly FeatureModule[],
  options: StartOptions,
  gateway: RealtimeGateway,
  metricSources: MetricSource[],
) {
  // The API's routes are put together on the first request that reaches them: a server nobody has
  // used yet does without their tables and handlers (measured: about 2.5 MB of heap), and the
  // probes (/healthz, /readyz, /metrics) are answered without them.
  let app: ReturnType<typeof buildApp> | undefined;
  const api = (request: Request) => {
    app ??= buildApp(deps, modules);
    return app.handle(request);
  };
  const webAssets =
    options.webAssets !== undefined
      ? options.webAssets
      : (embeddedWebAssets() ?? webAssetsFromDisk(join(import.meta.dir, "..", "web", "dist")));
  return createHttpHandler(api, httpDepsOf(deps), {
    webAssets,
    upgrade: gateway.upgrade,
    observe: recordHttpRequest,
    metrics: () => renderMetrics(metricSources),
    readiness: createReadiness(deps.db, deps.clock, async () =>
      (await mailboxHealthOf(deps.db, null)).filter((m) => m.status === "error"),
    ),
    ...options.http,
    pages: [...modules.flatMap((m) => m.pages?.(deps) ?? []), ...(options.http?.pages ?? [])],
  });
}

function serveHttp(
  config: Config,
  deps: Deps,
  handler: HttpHandler,
  gateway: RealtimeGateway,
  onFirstRequest: (() => void) | undefined,
): Server<unknown> {
  let firstRequest = onFirstRequest;
  const server = listenOrRefuse(config, () =>
    Bun.serve({
      hostname: config.host,
      port: config.port,
      // Bun turns SO_REUSEPORT on outside development mode, so a second Desk on a taken port would
      // bind beside the first and take half its requests: refuse instead (PortTakenError).
      reusePort: false,
      maxRequestBodySize: MAX_BODY_BYTES,
      idleTimeout: 60,
      // Never Bun's development error page, whatever NODE_ENV says: it shows source and paths.
      development: false,
      error: edgeErrorHandler(deps.logger.child({ subsystem: "http" })),
      fetch: (request, srv) => {
        if (firstRequest && !PROBE_PATHS.has(new URL(request.url).pathname)) {
          firstRequest();
          firstRequest = undefined;
        }
        return handler(request, srv as Server<unknown>);
      },
      websocket: gateway.websocket,
    }),
  );
  // Links, invitations and the realtime URL name the port actually bound (DESK_PORT may be 0 or
  // differ from 8080); nothing has been served yet, since this runs in the same turn as the bind.
  if (config.baseUrlFromListener) config.baseUrl = listenerBaseUrl(config.host, server.port ?? config.port);
  gateway.attach(server as Server<unknown>);
  return server as Server<unknown>;
}

/** The job runner and the consumers of every module, started unless DESK_JOBS is off. */
async function startBackgroundWork(config: Config, deps: Deps, modules: readonly FeatureModule[]) {
  const jobs = createJobRunner({
    db: deps.db,
    logger: deps.logger.child({ subsystem: "jobs" }),
    clock: deps.clock,
    deps,
    definitions: modules.flatMap((m) => m.jobs ?? []),
    node: config.nodeName,
  });
  if (config.jobsEnabled) await jobs.start();
  const consumers = createConsumerRunner({
    db: deps.db,
    logger: deps.logger.child({ subsystem: "consumers" }),
    clock: deps.clock,
    deps,
    consumers: modules.flatMap((m) => m.consumers ?? []),
  });
  // Consumers are background work like jobs: DESK_JOBS=off turns both off (the CLI, some tests).
  if (config.jobsEnabled) await consumers.start();
  return { jobs, consumers };
}
