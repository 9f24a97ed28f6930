/**
 * Test fixture: a separate process that claims one job and hangs in it, so the test can kill it
 * with SIGKILL and show that the next start runs the job again. Argument: the database path.
 *
 * SQLite-only by nature: a second process opens the
 * database file the test names and migrates it on its own SQLite connection, and the test reopens
 * that file after the kill.
 */
import { z } from "zod";
import { migrateDatabase, openDatabase } from "../db/engine";
import { createRuntime } from "../db/runtime";
import { transact } from "../db/tx";
import { createLogger } from "../lib/logger";
import { systemClock } from "../lib/clock";
import { lineages } from "../../migrations/lineages";
import { defineJob } from "./define";
import { enqueue } from "./enqueue";
import { createJobRunner } from "./runner";

const db = openDatabase(process.argv[2]!, createRuntime());
await migrateDatabase(db, lineages);
const hang = defineJob({
  schema: z.object({ label: z.string() }),
  name: "test.crashy",
  handler() {
    console.log("claimed");
    return new Promise<void>(() => {});
  },
});
const runner = createJobRunner({
  db,
  logger: createLogger("silent"),
  clock: systemClock,
  deps: {},
  definitions: [hang],
});
await transact(db, async (tx) => await enqueue(tx, hang, { label: "survivor" }));
await runner.start();
