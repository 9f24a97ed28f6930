import { createCredentialResolver, type CredentialResolver } from "./auth/credentials";
import { createTokenService, type TokenService } from "./auth/tokens";
import type { Config } from "./config/config";
import { openDatabase, optimizeDatabase, type Db } from "./db/database";
import { migrate } from "./db/migrate";
import { guardPlugin, type GuardPlugin } from "./auth/guard";
import { systemClock, type Clock } from "./lib/clock";
import { createSecretBox, type SecretBox } from "./lib/crypto";
import { createLogger, type Logger } from "./lib/logger";
import { migrations } from "../migrations/index";

/** Everything built once at start and handed to routes and services. */
export type Deps = {
  config: Config;
  db: Db;
  logger: Logger;
  clock: Clock;
  secrets: SecretBox;
  tokens: TokenService;
  credentials: CredentialResolver;
  guard: GuardPlugin;
};

export function buildDeps(config: Config, overrides: { db?: Db; logger?: Logger; clock?: Clock } = {}): Deps {
  const db = overrides.db ?? openDatabase(config.databasePath);
  migrate(db.$client, migrations);
  optimizeDatabase(db, true);
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const tokens = createTokenService(config.secret, () => clock.now());
  const credentials = createCredentialResolver({ db, tokens, clock });
  return {
    config,
    db,
    logger,
    clock,
    secrets: createSecretBox(config.secret),
    tokens,
    credentials,
    guard: guardPlugin(credentials),
  };
}
