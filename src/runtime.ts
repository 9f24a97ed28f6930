import { createTxRuntime } from "./db/tx";
import type { Runtime } from "./deps";
import { createEventBus } from "./events/bus";

/**
 * A fresh runtime for one desk (src/deps.ts `Runtime`): built once at start and given to
 * `openDatabase`, which carries it as `db.$runtime`. Each desk, CLI command and test database gets
 * its own.
 */
export const createRuntime = (): Runtime => ({
  ...createTxRuntime(),
  events: createEventBus(),
  runner: null,
  access: [],
  features: {},
});
