import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { untilCommitted, transact } from "../db/tx";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { anyEvent } from "../../test/kit/events";
import { appendEvent } from "./append";
import { events } from "./events.table";

// SQLite's group commit: a change is a savepoint in its event-loop turn's transaction, so a body
// that outlives its turn is refused. A PostgreSQL change is a transaction of its own and may wait.

const desk = await startTestDesk();

describe("event log", () => {
  test("a transaction body that awaits something other than the store is rolled back when its turn ends", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const slowChange = async (tx: Parameters<Parameters<typeof transact>[1]>[0]) => {
      await appendEvent(tx, anyEvent("x"), { workspaceId: workspace.id, data: {} });
      await Bun.sleep(5);
      await appendEvent(tx, anyEvent("x"), { workspaceId: workspace.id, data: {} });
    };
    await expect(transact(desk.deps.db, slowChange)).rejects.toThrow("still pending");
    await untilCommitted(desk.deps.db);
    const count = (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspace.id))).length;
    expect(count).toBe(1);
  });
});
