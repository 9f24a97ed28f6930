import type { CredentialLookups, CredentialResolver } from "./auth/credentials";
import type { GuardPlugin } from "./auth/guard";
import type { TokenService } from "./auth/tokens";
import type { Config } from "./config/config";
import type { Db } from "./db/database";
import type { ReadPool } from "./db/read-pool";
import type { EventCatalogue } from "./events/catalogue";
import type { BlobStore } from "./lib/blob-store";
import type { Clock } from "./lib/clock";
import type { SecretBox } from "./lib/crypto";
import type { Logger } from "./lib/logger";
import type { Ports } from "./lib/ports";
import type { GatewayLookups } from "./realtime/gateway.state";

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
  /** Every file kept beside the database (attachments, pictures, raw mail, the outbox), by key (src/lib/blob-store.ts). */
  blobs: BlobStore;
};
