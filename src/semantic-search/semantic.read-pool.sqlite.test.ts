import { afterAll, describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { slowListModules } from "../../test/kit/slow-lists";
import { newTicket } from "../../test/kit/tickets";
import { fakeAiEnv, startFakeAi } from "../../test/peers/fake-ai";

const fake = await startFakeAi();
afterAll(() => fake.stop());
// A short budget: a `spin` read keeps its worker's SQLite busy for seconds (test/kit/slow-lists.ts).
const desk = await startTestDesk({
  env: fakeAiEnv(fake, { DESK_AI_MAX_RETRIES: "0" }),
  config: { reads: { workers: 1, budgetMs: 1000, modules: slowListModules } },
});

describe("GET /v1/ai/search: the full-text half on the read pool", () => {
  test("runs on a worker, keeps to the workspace, and answers 503 query_timeout past its budget", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    await newTicket(desk, a.owner, { subject: "Wombat invoice" });
    await newTicket(desk, b.owner, { subject: "Wombat quote" });
    expect(desk.deps.reads.running()).toBe(0);
    const found = await desk.api("GET", "/v1/ai/search?q=wombat", { headers: b.owner.headers });
    expect(found.status).toBe(200);
    expect((found.body as { tickets: Array<{ subject: string }> }).tickets.map((t) => t.subject)).toEqual([
      "Wombat quote",
    ]);
    expect(desk.deps.reads.running()).toBe(1);

    const slow = await desk.api("GET", "/v1/ai/search?q=spin", { headers: b.owner.headers });
    expect(slow.status).toBe(503);
    expect(slow.body).toMatchObject({ status: 503, code: "query_timeout" });
  }, 30_000);
});
