import { expect, test } from "bun:test";
import { openTestDatabase } from "../../test/kit/database";
import { sql } from "drizzle-orm";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { anyEvent } from "../../test/kit/events";
import type { Db } from "../db/database";
import { setDeskClock } from "../db/desk-clock";
import { rowsOf } from "../db/store";
import { transact } from "../db/tx";
import { enqueueByName } from "../jobs/enqueue";
import { manualClock } from "../lib/clock";
import { appendEvent } from "./append";

/** A migrated database below any desk, on the engine the tests run on. */
const migrated = async (): Promise<Db> => (await openTestDatabase()).db;

test("events appended on a desk with a manual clock are stamped with its time", async () => {
  const clock = manualClock(new Date("2031-05-06T07:08:09Z"));
  const desk = await startTestDesk({ clock });
  const { workspace } = await createWorkspaceWithOwner(desk);
  const stamp = async () =>
    (
      await transact(
        desk.deps.db,
        async (tx) => await appendEvent(tx, anyEvent("test.clock"), { workspaceId: workspace.id, data: {} }),
      )
    ).occurred_at;
  expect(await stamp()).toBe("2031-05-06T07:08:09.000Z");
  clock.advance(60_000);
  expect(await stamp()).toBe("2031-05-06T07:09:09.000Z");
});

test("a job enqueued before any runner exists is due by the desk's clock", async () => {
  const db = await migrated();
  setDeskClock(db, manualClock(new Date("2031-05-06T07:08:09Z")));
  const id = (await transact(db, async (tx) => await enqueueByName(tx, "test.clock", {})))!;
  const [row] = await rowsOf<{ run_at: string; created_at: string }>(
    db,
    sql`SELECT run_at, created_at FROM jobs WHERE id = ${id}`,
  );
  expect(row).toEqual({ run_at: "2031-05-06T07:08:09.000Z", created_at: "2031-05-06T07:08:09.000Z" });
});
