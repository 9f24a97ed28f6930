import type { Server } from "bun";
import { join } from "node:path";
import { buildApp } from "./app";
import type { Config } from "./config/config";
import { buildDeps, type Deps } from "./deps";
import { pruneEventsJob } from "./events/events.jobs";
import { pruneIdempotencyKeysJob } from "./http/idempotency.jobs";
import { createHttpHandler, MAX_BODY_BYTES, type HttpOptions } from "./http/server";
import { embeddedWebAssets } from "./http/embedded";
import { webAssetsFromDisk, type WebAssets } from "./http/web-assets";
import type { JobDefinition } from "./jobs/define";
import { pruneJobsJob } from "./jobs/jobs.maintenance";
import { createJobRunner, type JobRunner } from "./jobs/runner";
import type { Clock } from "./lib/clock";
import { featureJobs, registerFeatureHooks } from "./registry";

export type Desk = {
  deps: Deps;
  server: Server<unknown>;
  url: string;
  jobs: JobRunner;
  fetch: (request: Request) => Promise<Response>;
  stop(): Promise<void>;
};

export type StartOptions = { clock?: Clock; webAssets?: WebAssets | null; http?: Pick<HttpOptions, "upgrade" | "observe"> };

/** Every job kind: machinery's maintenance plus each feature's. */
export function allJobs(deps: Deps): JobDefinition<never>[] {
  return [pruneEventsJob(deps), pruneIdempotencyKeysJob(deps), pruneJobsJob(deps), ...featureJobs(deps)] as JobDefinition<never>[];
}

/**
 * The composition root: migrations → HTTP (API, web app, gateway) → jobs; stop runs in reverse.
 * `main.ts` calls it for `serve`; tests call it with port 0.
 */
export async function startDesk(config: Config, options: StartOptions = {}): Promise<Desk> {
  const deps = buildDeps(config, { clock: options.clock });
  registerFeatureHooks(deps);
  const app = buildApp(deps);
  const webAssets =
    options.webAssets !== undefined ? options.webAssets : (embeddedWebAssets() ?? webAssetsFromDisk(join(import.meta.dir, "..", "web", "dist")));
  const handler = createHttpHandler(app, deps, { webAssets, ...options.http });
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    maxRequestBodySize: MAX_BODY_BYTES,
    idleTimeout: 60,
    fetch: (request, srv) => handler(request, srv),
  });
  const jobs = createJobRunner({ db: deps.db, logger: deps.logger.child({ subsystem: "jobs" }), clock: deps.clock, definitions: allJobs(deps) });
  if (config.jobsEnabled) jobs.start();
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  deps.logger.info({ url, data_dir: config.dataDir }, "desk is serving");
  return {
    deps,
    server,
    url,
    jobs,
    fetch: (request) => handler(request, server),
    async stop() {
      await server.stop();
      await jobs.stop();
      deps.db.$client.close();
    },
  };
}
