import type { Server } from "bun";
import { join } from "node:path";
import { buildApp } from "./app";
import { listenerBaseUrl, type Config } from "./config/config";
import { buildDeps, type Deps } from "./deps";
import { startCheckpointer } from "./db/checkpointer";
import { commitPending } from "./db/tx";
import { optimizeDatabaseJob } from "./db/db.jobs";
import { pruneEventsJob } from "./events/events.jobs";
import { recoverIdempotencyKeys } from "./http/idempotency";
import { pruneIdempotencyKeysJob } from "./http/idempotency.jobs";
import { createHttpHandler, edgeErrorHandler, MAX_BODY_BYTES, type HttpOptions } from "./http/server";
import { embeddedWebAssets } from "./http/embedded";
import { webAssetsFromDisk, type WebAssets } from "./http/web-assets";
import type { JobDefinition } from "./jobs/define";
import { pruneJobsJob } from "./jobs/jobs.maintenance";
import { createJobRunner, type JobRunner } from "./jobs/runner";
import type { Clock } from "./lib/clock";
import { startInboundSmtp } from "./inbound/inbound.smtp";
import { closeImapSessions } from "./inbound/inbound.imap";
import { featureJobs, registerFeatureHooks } from "./registry";
import { createRealtimeGateway } from "./realtime/gateway";
import { recordHttpRequest, renderMetrics } from "./metrics/metrics";
import { jobsSource } from "./metrics/metrics.sources";

export type Desk = {
  deps: Deps;
  server: Server<unknown>;
  url: string;
  jobs: JobRunner;
  /** The embedded SMTP receiver's port, or null when it is off (config.smtpPort 0). */
  smtpPort: number | null;
  fetch: (request: Request) => Promise<Response>;
  stop(): Promise<void>;
};

export type StartOptions = {
  clock?: Clock;
  webAssets?: WebAssets | null;
  http?: Pick<HttpOptions, "upgrade" | "observe">;
};

/** Every job kind: machinery's maintenance plus each feature's. */
export function allJobs(deps: Deps): JobDefinition<never>[] {
  return [
    pruneEventsJob(deps),
    pruneIdempotencyKeysJob(deps),
    pruneJobsJob(deps),
    optimizeDatabaseJob(deps),
    ...featureJobs(deps),
  ] as JobDefinition<never>[];
}

/**
 * The composition root: migrations → HTTP (API, web app, gateway) → jobs; stop runs in reverse.
 * `main.ts` calls it for `serve`; tests call it with port 0.
 */
export async function startDesk(config: Config, options: StartOptions = {}): Promise<Desk> {
  const deps = buildDeps(config, { clock: options.clock });
  const checkpointer = startCheckpointer(deps.db, config.databasePath, deps.logger.child({ subsystem: "db" }));
  registerFeatureHooks(deps);
  const recovered = recoverIdempotencyKeys(deps.db.$client);
  if (recovered > 0)
    deps.logger.warn(
      { keys: recovered },
      "dropped idempotency keys left running by an earlier process; their retries run again",
    );
  const app = buildApp(deps);
  const webAssets =
    options.webAssets !== undefined
      ? options.webAssets
      : (embeddedWebAssets() ?? webAssetsFromDisk(join(import.meta.dir, "..", "web", "dist")));
  const gateway = createRealtimeGateway(deps);
  const metricSources = [jobsSource(deps.db), gateway.metrics()];
  const handler = createHttpHandler(app, deps, {
    webAssets,
    upgrade: gateway.upgrade,
    observe: recordHttpRequest,
    metrics: () => renderMetrics(metricSources),
    ...options.http,
  });
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    maxRequestBodySize: MAX_BODY_BYTES,
    idleTimeout: 60,
    // Never Bun's development error page, whatever NODE_ENV says: it shows source and paths.
    development: false,
    error: edgeErrorHandler(deps.logger.child({ subsystem: "http" })),
    fetch: (request, srv) => handler(request, srv as Server<unknown>),
    websocket: gateway.websocket,
  });
  // Links, invitations and the realtime URL name the port actually bound (DESK_PORT may be 0 or
  // differ from 8080); nothing has been served yet, since this runs in the same turn as the bind.
  if (config.baseUrlFromListener) config.baseUrl = listenerBaseUrl(config.host, server.port ?? config.port);
  gateway.attach(server as Server<unknown>);
  const smtp = config.smtpPort > 0 ? await startInboundSmtp(deps) : null;
  const jobs = createJobRunner({
    db: deps.db,
    logger: deps.logger.child({ subsystem: "jobs" }),
    clock: deps.clock,
    definitions: allJobs(deps),
  });
  if (config.jobsEnabled) jobs.start();
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  deps.logger.info({ url, base_url: config.baseUrl, data_dir: config.dataDir }, "desk is serving");
  return {
    deps,
    server,
    url,
    jobs,
    smtpPort: smtp?.port ?? null,
    fetch: (request) => handler(request, server),
    async stop() {
      gateway.stop();
      await smtp?.close();
      await server.stop();
      closeImapSessions(deps.db);
      await jobs.stop();
      commitPending(deps.db);
      checkpointer.stop();
      deps.db.$client.close();
    },
  };
}
