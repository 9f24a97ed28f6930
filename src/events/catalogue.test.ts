import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { transact } from "../db/tx";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { appendEvent } from "./append";
import { createEventCatalogue } from "./catalogue";
import { defineEvent } from "./define";

const noteAdded = defineEvent("note.added", z.object({ note: z.object({ id: z.string(), body: z.string() }) }), {
  readScope: "tickets:read",
  description: "test",
});

describe("event definitions", () => {
  test("data that drifts from the definition fails when response checks are on (tests, development)", async () => {
    const desk = await startTestDesk();
    const { workspace } = await createWorkspaceWithOwner(desk);
    const append = async (data: unknown) =>
      await transact(
        desk.deps.db,
        async (tx) =>
          // @ts-expect-error the data is checked against the definition at compile time too
          await appendEvent(tx, noteAdded, { workspaceId: workspace.id, data }),
      );
    await expect(append({ note: { id: "n1" } })).rejects.toThrow("note.added event data does not match its definition");
    await expect(append({ note: { id: "n1", body: "x", secret: "y" } })).rejects.toThrow(
      "fields the schema does not describe: note.secret",
    );
    const stored = await transact(
      desk.deps.db,
      async (tx) =>
        await appendEvent(tx, noteAdded, { workspaceId: workspace.id, data: { note: { id: "n1", body: "x" } } }),
    );
    expect(stored.type).toBe("note.added");
    expect(stored.data).toEqual({ note: { id: "n1", body: "x" } });
  });

  test("production stores the data unchecked (no parse on the write path)", async () => {
    const desk = await startTestDesk({ env: { DESK_RESPONSE_CHECKS: "off" } });
    const { workspace } = await createWorkspaceWithOwner(desk);
    const data = { note: { id: "n1" } } as unknown as { note: { id: string; body: string } };
    const stored = await transact(
      desk.deps.db,
      async (tx) => await appendEvent(tx, noteAdded, { workspaceId: workspace.id, data }),
    );
    expect(stored.data).toEqual({ note: { id: "n1" } });
  });

  test("the catalogue refuses a type defined twice and one resource read with two scopes", () => {
    expect(() => createEventCatalogue([noteAdded, noteAdded])).toThrow("note.added is defined twice");
    const noteRemoved = defineEvent("note.removed", z.object({ note_id: z.string() }), {
      readScope: "settings:read",
      description: "test",
    });
    expect(() => createEventCatalogue([noteAdded, noteRemoved])).toThrow("note.* events are read with tickets:read");
  });

  test("read scopes are decided per resource; a resource no definition names stays undecided", () => {
    const catalogue = createEventCatalogue([noteAdded]);
    expect(catalogue.readScopeOf("note.added")).toBe("tickets:read");
    expect(catalogue.readScopeOf("note.edited")).toBe("tickets:read");
    expect(catalogue.readScopeOf("memo.added")).toBeUndefined();
    expect(catalogue.readScopes).toEqual(["tickets:read"]);
    expect(catalogue.subscribable).toEqual(["note.added"]);
  });
});
