import { systemClock, type Clock } from "../lib/clock";
import type { Db } from "./database";
import { deskState } from "./desk-state";

const clockSlot = deskState("db.clock", () => ({ clock: systemClock as Clock }));

/**
 * The desk's clock for code that has a database but no deps (event times, enqueue without a
 * runner): set once by buildDeps to `deps.clock`, so a test's manual clock reaches them too.
 */
export const deskClock = (db: Db): Clock => clockSlot(db).clock;

export function setDeskClock(db: Db, clock: Clock): void {
  clockSlot(db).clock = clock;
}
