/**
 * Test fixture: a separate process that runs a consumer over the stored events, two per turn (so
 * each pair commits on its own), and dies by SIGKILL while handling the fifth. Argument: the
 * database path.
 *
 * SQLite-only by nature: a second process opens the
 * database file the test names and migrates it on its own SQLite connection, and the test reopens
 * that file after the kill.
 */
import { migrateDatabase, openDatabase } from "../db/engine";
import { createRuntime } from "../db/runtime";
import { manualClock } from "../lib/clock";
import { createLogger } from "../lib/logger";
import { lineages } from "../../migrations/lineages";
import { createConsumerRunner } from "./consumers";
import { recordingConsumer } from "../../test/kit/consumers";

const db = openDatabase(process.argv[2]!, createRuntime());
await migrateDatabase(db, lineages);
let seen = 0;
const runner = createConsumerRunner({
  db,
  logger: createLogger("silent"),
  clock: manualClock(),
  deps: {},
  batch: 2,
  consumers: [
    recordingConsumer((event) => {
      if (++seen === 5) process.kill(process.pid, "SIGKILL");
      return event;
    }),
  ],
});
await runner.drain();
