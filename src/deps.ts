import type { CredentialLookups, CredentialResolver } from "./auth/credentials";
import type { GuardPlugin } from "./auth/guard";
import type { AccessListeners } from "./auth/session-signals";
import type { TokenService } from "./auth/tokens";
import type { Config } from "./config/config";
import type { Db } from "./db/database";
import type { DeskStates } from "./db/desk-state";
import type { ReadPool } from "./db/read-pool";
import type { TxRuntime } from "./db/tx";
import type { EventBus } from "./events/bus";
import type { EventCatalogue } from "./events/catalogue";
import type { RunnerLink } from "./jobs/enqueue";
import type { Clock } from "./lib/clock";
import type { SecretBox } from "./lib/crypto";
import type { Logger } from "./lib/logger";
import type { Ports } from "./lib/ports";
import type { GatewayLookups } from "./realtime/gateway";

/**
 * The state one desk's machinery and features share, built once at start (`createRuntime`,
 * src/runtime.ts), given to `openDatabase` and reached as `db.$runtime` from the database and every
 * transaction handle: no module-level registry keyed by database, so desks in one process never
 * share any of it.
 */
export type Runtime = TxRuntime & {
  /** In-transaction hooks and committed listeners of events (src/events/bus.ts). */
  events: EventBus;
  /** The job runner's wake-up and clock, once a runner is built (src/jobs/enqueue.ts). */
  runner: RunnerLink | null;
  /** Who hears that sessions, memberships, keys or grants ended or changed (src/auth/session-signals.ts). */
  access: AccessListeners;
  /** Features' own state: open IMAP sessions, the webhook cache, the open-ticket counter (src/db/desk-state.ts). */
  features: DeskStates;
};

/** What machinery asks the features that own the data (src/compose.ts wires their public lookups). */
export type MachineryLookups = CredentialLookups & GatewayLookups;

/** Everything built once at start (src/compose.ts) and handed to routes and services. */
export type Deps = {
  config: Config;
  db: Db;
  logger: Logger;
  clock: Clock;
  secrets: SecretBox;
  tokens: TokenService;
  credentials: CredentialResolver;
  guard: GuardPlugin;
  lookups: MachineryLookups;
  /** Every event type of the modules Desk runs, with its schema and read scope. */
  events: EventCatalogue;
  /** Worker threads for reads whose cost grows with the workspace (src/db/read-pool.ts); they start on first use. */
  reads: ReadPool;
  /** The ports modules declared, each bound to the one module that provides it (src/lib/ports.ts). */
  ports: Ports;
};
