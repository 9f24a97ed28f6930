import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { transact } from "../db/tx";
import { createLogger } from "../lib/logger";
import { appendEvent } from "./append";
import { onEvent, onEveryEvent } from "./bus";
import { createConsumerRunner, defineConsumer } from "./consumers";
import { defineEvent } from "./define";

const options = { readScope: null, description: "test event" };
const itemAdded = defineEvent("test_item.added", z.object({ item: z.object({ id: z.string() }) }), options);
const itemRemoved = defineEvent("test_item.removed", z.object({ item_id: z.string() }), options);
const other = defineEvent("test_other.added", z.object({ other: z.number() }), options);

const desk = await startTestDesk({ env: { DESK_JOBS: "off" } });
const { workspace } = await createWorkspaceWithOwner(desk);

async function appendAll(): Promise<void> {
  await transact(desk.deps.db, async (tx) => {
    await appendEvent(tx, itemAdded, { workspaceId: workspace.id, data: { item: { id: "a" } } });
    await appendEvent(tx, other, { workspaceId: workspace.id, data: { other: 1 } });
    await appendEvent(tx, itemRemoved, { workspaceId: workspace.id, data: { item_id: "b" } });
  });
}

describe("reactions name event definitions", () => {
  test("a consumer gets the events of its definitions, data typed and narrowed by type; a type by string does not compile", async () => {
    const seen: string[] = [];
    const consumer = defineConsumer({
      name: "test.typed",
      events: [itemAdded, itemRemoved],
      handle(_tx, event) {
        if (event.type === "test_item.added") seen.push(`added ${event.data.item.id}`);
        else seen.push(`removed ${event.data.item_id}`);
        // @ts-expect-error narrowed: an added item's data has no item_id
        void (event.type === "test_item.added" && event.data.item_id);
      },
    });
    // @ts-expect-error a consumer names definitions: a misspelt string type is caught at compile time
    defineConsumer({ name: "test.by-string", events: ["test_item.addded"], handle() {} });
    const runner = createConsumerRunner({
      db: desk.deps.db,
      logger: createLogger("silent"),
      clock: desk.deps.clock,
      deps: {},
      consumers: [consumer],
    });
    await runner.drain();
    await appendAll();
    await runner.drain();
    expect(seen).toEqual(["added a", "removed b"]);
  });

  test("an in-transaction hook runs for its definitions only, inside the event's transaction; the all-events form sees every one", async () => {
    const typed: string[] = [];
    const every: string[] = [];
    const stopTyped = onEvent(desk.deps.db, [itemRemoved], (tx, event) => {
      typed.push(event.data.item_id);
      expect(tx).toBeDefined();
    });
    const stopEvery = onEveryEvent(desk.deps.db, (_tx, event) => void every.push(event.type));
    try {
      await appendAll();
    } finally {
      stopTyped();
      stopEvery();
    }
    expect(typed).toEqual(["b"]);
    expect(every).toEqual(["test_item.added", "test_other.added", "test_item.removed"]);
  });
});
