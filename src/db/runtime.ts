import type { Runtime } from "./database";
import { createTxRuntime } from "./tx";

/**
 * A fresh runtime for one desk (`Runtime`, src/db/database.ts): built once at start and given to
 * `openDatabase`, which carries it as `db.$runtime`. Each desk, CLI command and test database gets
 * its own.
 */
export const createRuntime = (): Runtime => ({ ...createTxRuntime(), states: {} });
