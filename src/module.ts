import type { AnyElysia } from "elysia";
import type { Deps } from "./deps";
import type { Consumer } from "./events/consumers";
import type { AnyEventDefinition } from "./events/define";
import type { Page } from "./http/pages";
import type { AnyJob } from "./jobs/define";
import type { Port, PortBinding } from "./lib/ports";

/** Something a module starts with Desk and stops on shutdown (a listener, a pool of connections). */
export type Subsystem = {
  /** Names it in logs and in `Desk.subsystems`. */
  name: string;
  /** The port it listens on, when it does. */
  port?: number;
  stop(): Promise<void> | void;
};

/**
 * Everything a feature plugs into Desk, declared in one place (`src/<feature>/<feature>.module.ts`)
 * and listed once in `src/registry.ts`. `src/app.ts` and `src/start.ts` do the rest.
 */
export type FeatureModule = {
  name: string;
  /** Route plugins, mounted under /v1 in this order. */
  routes?: (deps: Deps) => AnyElysia[];
  /** Pages served outside /v1 (help center, rating page, widget script). */
  pages?: (deps: Deps) => Page[];
  /**
   * The event types this feature emits, each defined once (`<feature>.events.ts`). The catalogue
   * of registered modules gives webhooks their subscribable types, the OpenAPI document its
   * `webhooks` section, visibility its read scopes and the web app its event type list.
   */
  events?: readonly AnyEventDefinition[];
  /** Job kinds the runner may claim. */
  jobs?: AnyJob<Deps>[];
  /** Durable event consumers: reactions that run after commit, each with its own cursor. */
  consumers?: Consumer<Deps>[];
  /**
   * Registered once before anything is served: hooks that must run inside the writer's transaction,
   * kept for outbox rows (webhook deliveries, outbound mail) and the search staging. Any other
   * reaction is a consumer.
   */
  inTransaction?: (deps: Deps) => void | Promise<void>;
  /**
   * Ports this module declares (src/lib/ports.ts): what it asks of a module above it, declared in
   * its public file. Start fails when one is provided by no module or by two.
   */
  ports?: readonly Port<unknown>[];
  /** Its answers to lower modules' ports (`provide(port, value)`), bound once at start. */
  provides?: readonly PortBinding[];
  /** Starts a subsystem once Desk listens (its base URL is then known); null when configured off. */
  start?: (deps: Deps) => Promise<Subsystem | Subsystem[] | null> | Subsystem | Subsystem[] | null;
};

export function defineModule(module: FeatureModule): FeatureModule {
  return module;
}
