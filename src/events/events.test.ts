import { describe, expect, test } from "bun:test";
import { asc, eq, sql } from "drizzle-orm";
import { rowsOf } from "../db/store";
import { untilCommitted, transact } from "../db/tx";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { anyEvent } from "../../test/kit/events";
import { onPostgres } from "../../test/kit/postgres";
import { appendEvent } from "./append";
import { onEventsCommitted } from "./bus";
import { events } from "./events.table";

const desk = await startTestDesk();

describe("event log", () => {
  test("50 parallel writes leave a contiguous seq with no SQLITE_BUSY", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        Promise.resolve().then(
          async () =>
            await transact(
              desk.deps.db,
              async (tx) => await appendEvent(tx, anyEvent("test.write"), { workspaceId: workspace.id, data: { i } }),
            ),
        ),
      ),
    );
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    const seqs = (
      await desk.deps.db
        .select({ seq: events.seq })
        .from(events)
        .where(eq(events.workspaceId, workspace.id))
        .orderBy(asc(events.seq))
    ).map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(seqs.length).toBe(51); // the workspace's own creation event plus the 50 writes
  });

  test("an event rolled back with its change leaves no gap and is never published", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    await untilCommitted(desk.deps.db); // the workspace's own creation event is published by then
    const published: number[] = [];
    const off = onEventsCommitted(desk.deps.db, (batch) =>
      published.push(...batch.filter((e) => e.workspace_id === workspace.id).map((e) => e.seq)),
    );
    expect(
      async () =>
        await transact(desk.deps.db, async (tx) => {
          await appendEvent(tx, anyEvent("test.doomed"), { workspaceId: workspace.id, data: {} });
          throw new Error("boom");
        }),
    ).toThrow("boom");
    let publishedInChange: number[] | null = null;
    const next = await transact(desk.deps.db, async (tx) => {
      const kept = await appendEvent(tx, anyEvent("test.kept"), { workspaceId: workspace.id, data: {} });
      publishedInChange = [...published];
      return kept;
    });
    expect(publishedInChange!).toEqual([]); // published only once committed
    // SQLite commits when the turn ends (group commit); PostgreSQL before transact settles.
    if (!onPostgres) expect(published).toEqual([]);
    await untilCommitted(desk.deps.db);
    off();
    expect(next.seq).toBe(2);
    expect(published).toEqual([2]);
  });

  test("an event for a workspace that does not exist fails, even after a caller caught the first failure", async () => {
    const append = async (tx: Parameters<Parameters<typeof transact>[1]>[0]) =>
      await appendEvent(tx, anyEvent("test.orphan"), { workspaceId: "ws_missing", data: {} });
    await expect(transact(desk.deps.db, append)).rejects.toThrow("appendEvent: workspace ws_missing does not exist");
    // A caller that catches it and commits the rest of its change leaves no counter behind.
    await transact(desk.deps.db, async (tx) => {
      await expect(append(tx)).rejects.toThrow("does not exist");
    });
    await expect(transact(desk.deps.db, append)).rejects.toThrow("does not exist");
    await untilCommitted(desk.deps.db);
    expect(await desk.deps.db.select().from(events).where(eq(events.workspaceId, "ws_missing"))).toEqual([]);
  });

  test("seqs are counted per workspace in the event store's own counter, not on the workspace row", async () => {
    const one = (await createWorkspaceWithOwner(desk)).workspace;
    const two = (await createWorkspaceWithOwner(desk)).workspace;
    const add = async (workspaceId: string) =>
      await transact(
        desk.deps.db,
        async (tx) => (await appendEvent(tx, anyEvent("test.count"), { workspaceId, data: {} })).seq,
      );
    expect([await add(one.id), await add(two.id), await add(one.id)]).toEqual([2, 2, 3]);
    await untilCommitted(desk.deps.db);
    const [counter] = await rowsOf<{ last_seq: number }>(
      desk.deps.db,
      sql`SELECT last_seq FROM event_seqs WHERE workspace_id = ${one.id}`,
    );
    expect(counter?.last_seq).toBe(3);
  });

  test("a private-team event goes to the team topic only", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const event = await transact(
      desk.deps.db,
      async (tx) =>
        await appendEvent(tx, anyEvent("ticket.updated"), { workspaceId: workspace.id, data: {}, privateTeamId: "t1" }),
    );
    expect(event.topics).toEqual([`team:${workspace.id}:t1`]);
  });
});
