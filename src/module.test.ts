import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { z } from "zod";
import { createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";
import { defineConsumer } from "./events/consumers";
import { defineJob } from "./jobs/define";
import { enqueue } from "./jobs/enqueue";
import { defineModule } from "./module";
import { modules } from "./registry";
import { workspaceUpdated } from "./workspaces/workspaces.public";

/** What the example's job saw, per desk (the job is shared by every desk of this file). */
const noted: string[] = [];

const noteJob = defineJob({
  name: "example.note",
  schema: z.object({ workspace_id: z.string() }),
  handler: ({ workspace_id }) => void noted.push(workspace_id),
});

/** A whole feature in one screen: a route, a job and a consumer that enqueues it. */
const exampleModule = defineModule({
  name: "example",
  routes: () => [
    new Elysia({ prefix: "/example", tags: ["example"] }).get("/ping", () => ({ pong: true }), {
      response: { 200: z.object({ pong: z.boolean() }) },
      detail: { summary: "Answer a ping" },
    }),
  ],
  jobs: [noteJob],
  consumers: [
    defineConsumer({
      name: "example.on-workspace",
      events: [workspaceUpdated],
      handle: (tx, event) => void enqueue(tx, noteJob, { workspace_id: event.workspace_id }),
    }),
  ],
});

describe("feature modules", () => {
  test("a module added to the list serves its routes, runs its consumer and its job", async () => {
    const desk = await startTestDesk({ modules: [...modules, exampleModule] });
    const ping = await desk.api("GET", "/v1/example/ping");
    expect(ping).toMatchObject({ status: 200, body: { pong: true } });
    const openapi = await desk.api("GET", "/v1/openapi.json");
    expect(Object.keys(openapi.body.paths)).toContain("/v1/example/ping");

    const { workspace } = await createWorkspaceWithOwner(desk);
    await desk.consumers.drain();
    await desk.jobs.drain();
    expect(noted).toEqual([workspace.id]);
  });

  test("removed from the list, it leaves nothing behind", async () => {
    const before = noted.length;
    const desk = await startTestDesk({ modules });
    expect((await desk.api("GET", "/v1/example/ping")).status).toBe(404);
    const openapi = await desk.api("GET", "/v1/openapi.json");
    expect(Object.keys(openapi.body.paths)).not.toContain("/v1/example/ping");
    await createWorkspaceWithOwner(desk);
    await desk.consumers.drain();
    await desk.jobs.drain();
    expect(noted).toHaveLength(before);
  });

  test("every module has a unique name, and every job kind is declared once", () => {
    const names = modules.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    const kinds = modules.flatMap((m) => m.jobs ?? []).map((j) => j.name);
    expect(new Set(kinds).size).toBe(kinds.length);
  });
});

describe("ports at start", () => {
  test("every port the registered modules declare is provided exactly once", async () => {
    const declared = modules.flatMap((m) => m.ports ?? []);
    const provided = modules.flatMap((m) => m.provides ?? []).map((binding) => binding.port);
    expect(new Set(provided).size).toBe(provided.length);
    expect(new Set(provided)).toEqual(new Set(declared));
    const desk = await startTestDesk({ modules });
    for (const port of declared) expect(desk.deps.ports.get(port)).toBeDefined();
  });

  test("leaving out the module that provides a port fails start, naming the port", async () => {
    const providers = modules.filter((m) => (m.provides ?? []).length > 0);
    expect(providers.length).toBeGreaterThan(0);
    for (const provider of providers) {
      const named = provider.provides!.map((binding) => binding.port.name);
      const without = modules.filter((m) => m !== provider);
      const started = startTestDesk({ modules: without });
      await expect(started).rejects.toThrow(new RegExp(`port ${named[0]!.replace(".", "\\.")}`));
    }
  });
});
