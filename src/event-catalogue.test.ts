import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { EVENT_TYPES_FILE, renderEventTypes } from "../scripts/gen-event-types";
import { createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";
import { registeredEvents } from "./compose";
import { defineEvent } from "./events/define";
import { defineModule } from "./module";
import { modules } from "./registry";

/** An event a module added to a desk defines: the catalogue is what the desk's modules declare. */
const noteAdded = defineEvent("note.added", z.object({ note_id: z.string() }), {
  readScope: "tickets:read",
  description: "A note was added.",
});
const notesModule = defineModule({ name: "notes", events: [noteAdded] });

const desk = await startTestDesk({ modules: [...modules, notesModule], env: { DESK_JOBS: "off" } });

describe("event catalogue", () => {
  test("web/src/lib/event-types.ts is generated from the catalogue (run bun scripts/gen-event-types.ts)", async () => {
    expect(await Bun.file(EVENT_TYPES_FILE).text()).toBe(renderEventTypes(registeredEvents()));
  });

  test("webhooks accept exactly the subscribable types of the modules Desk runs", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const create = (events: string[]) =>
      desk.api("POST", "/v1/webhooks", {
        headers: owner.headers,
        body: { url: "https://hooks.example.com/desk", events },
      });
    const refused = await create(["ticket.created", "note.removed", "event.hidden", "webhook.test"]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { location: string }) => e.location)).toEqual([
      "body.events.1",
      "body.events.2",
      "body.events.3",
    ]);
    expect(desk.deps.events.subscribable).toContain("note.added");
    expect(desk.deps.events.subscribable).not.toContain("event.hidden");
  });

  test("the OpenAPI document describes each event receivers get, with its data schema, and lists the subscribable types", async () => {
    const doc = (await desk.api("GET", "/v1/openapi.json")).body;
    const receivable = desk.deps.events.definitions.map((d) => d.type).filter((type) => type !== "event.hidden");
    expect(Object.keys(doc.webhooks)).toEqual(receivable);
    const envelope = doc.webhooks["ticket.created"].post.requestBody.content["application/json"].schema;
    expect(envelope.properties.type).toEqual({ type: "string", const: "ticket.created" });
    expect(envelope.properties.data.properties.ticket).toEqual({ $ref: "#/components/schemas/Ticket" });
    expect(doc.webhooks["note.added"].post.description).toStartWith("A note was added.");
    const body = doc.paths["/v1/webhooks"].post.requestBody.content["application/json"].schema;
    expect(body.properties.events.items.enum).toEqual(["*", ...desk.deps.events.subscribable]);
  });
});
